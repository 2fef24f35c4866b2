package dev.feedstore.server.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.settings.ServerSettings;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The JSON body of an HTTP append reads straight into the authority's command, in every form the
 * API takes (the documented snake_case, protobuf's lowerCamelCase, whole numbers as strings, null
 * for absent, both base64 alphabets), and anything else is refused naming what is wrong.
 */
class AppendBodyTest {
  final FeedId feed = TestBlocks.feedId();

  AppendCommand command(String json) {
    return AppendBody.read(json.getBytes(StandardCharsets.UTF_8), "s", feed.value())
        .command(ServerSettings.DEFAULTS.limits());
  }

  @Test
  void theDocumentedBodyIsTheCommandOfItsBlocks() {
    AppendCommand command = command("{\"namespace\": \"chat\", \"blocks\": [{\"actor_id\": \"a\", \"sequence\": 0,"
        + " \"timestamp\": 1700000000000, \"data\": \"aGk=\"}, {\"actor_id\": \"a\", \"sequence\": 1,"
        + " \"prev_actor_id\": \"a\", \"prev_sequence\": 0, \"timestamp\": 1700000000001, \"data\": \"\"}]}");

    Block first = Block.unpositioned(new BlockKey(feed, ActorId.of("a"), new Sequence(0)), Optional.empty(),
        1_700_000_000_000L, BlockData.copyOf("hi".getBytes(StandardCharsets.UTF_8)));
    Block second = Block.unpositioned(new BlockKey(feed, ActorId.of("a"), new Sequence(1)),
        Optional.of(new Predecessor(ActorId.of("a"), new Sequence(0))), 1_700_000_000_001L, BlockData.copyOf(new byte[0]));
    assertEquals(new AppendCommand(SpaceId.of("s"), Optional.of(Namespace.of("chat")), List.of(first, second)), command);
  }

  @Test
  void protobufsJsonFormsReadAsTheSameBlocks() {
    AppendCommand documented = command("{\"blocks\": [{\"actor_id\": \"a\", \"sequence\": 5, \"prev_actor_id\": \"a\","
        + " \"prev_sequence\": 4, \"timestamp\": 7, \"data\": \"-_8=\"}], \"namespace\": null}");
    AppendCommand camel = command("{\"spaceId\": \"s\", \"requestId\": \"r\", \"blocks\": [{\"feedId\": \""
        + feed.value() + "\", \"actorId\": \"\\u0061\", \"sequence\": \"5\", \"prevActorId\": \"a\", \"prevSequence\":"
        + " 4.0, \"timestamp\": 7e0, \"data\": \"+/8\", \"position\": null}]}");

    assertEquals(documented, camel);
    assertEquals(List.of((byte) 0xfb, (byte) 0xff), toList(documented.blocks().get(0).data().toByteArray()));
    assertEquals(Optional.empty(), documented.namespace());
  }

  @Test
  void aBodyThatIsNotTheJsonOfAnAppendIsRefusedSayingWhereItGoesWrong() {
    refused("{\"blocks\": [", "expected ");
    refused("{\"blocks\": []} x", "nothing may follow");
    refused("[]", "expected an object at character 0");
    refused("{\"blocks\": [{\"actor_id\": \"a\", \"colour\": \"red\"}]}", "unknown field 'colour' in blocks[0]");
    refused("{\"blocks\": [{\"actor_id\": \"a\", \"actorId\": \"b\"}]}", "blocks[0].actor_id is given twice");
    refused("{\"blocks\": [{\"sequence\": 1.5}]}", "blocks[0].sequence is not a whole number");
    refused("{\"blocks\": [{\"sequence\": 99999999999999999999}]}", "blocks[0].sequence is not a whole number");
    refused("{\"blocks\": [{\"data\": \"***\"}]}", "blocks[0].data is not base64");
    refused("{\"blocks\": [{\"actor_id\": \"\\q\"}]}", "unknown escape");
    refused("{\"blocks\": [{\"actor_id\": 3}]}", "expected a string");
    refused("{\"blocks\": {}}", "expected an array");
  }

  @Test
  void valuesAreCheckedByTheApisRulesNamingTheirFields() {
    rejected("{\"blocks\": []}", "blocks must hold at least one block");
    rejected("{\"blocks\": [{\"actor_id\": \"a\", \"position\": 9}]}", "blocks[0].position must be absent in Append");
    rejected("{\"blocks\": [{\"actor_id\": \"a\", \"sequence\": -1}]}", "blocks[0].sequence");
    rejected("{\"blocks\": [{\"actor_id\": \"\"}]}", "blocks[0].actor_id");
    rejected("{\"blocks\": [{\"actor_id\": \"a\", \"timestamp\": -1}]}", "blocks[0].timestamp must be >= 0");
    rejected("{\"blocks\": [{\"actor_id\": \"a\", \"prev_actor_id\": \"a\"}]}",
        "blocks[0].prev_sequence must be present when prev_actor_id is");
    rejected("{\"blocks\": [{\"actor_id\": \"a\", \"sequence\": 2, \"prev_actor_id\": \"a\", \"prev_sequence\": 2}]}",
        "blocks[0].prev_sequence must not name the block itself");
    rejected("{\"blocks\": [{\"actor_id\": \"a\", \"received_at\": 3}]}", "blocks[0].received_at must be absent");
    rejected("{\"space_id\": \"other\", \"blocks\": [{\"actor_id\": \"a\"}]}", "space_id must be left out or be the"
        + " path's space 's'");
    rejected("{\"namespace\": \"\", \"blocks\": [{\"actor_id\": \"a\"}]}", "namespace");
    LimitExceededException tooMany = assertThrows(LimitExceededException.class, () -> command("{\"blocks\": ["
        + "{\"actor_id\": \"a\"},".repeat(ServerSettings.DEFAULTS.limits().maxBlocksPerAppend()) + "{}]}"));
    assertTrue(tooMany.getMessage().contains("blocks-per-append"), tooMany.getMessage());
  }

  private void refused(String json, String said) {
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> command(json), json);
    assertEquals("body", e.field(), e.getMessage());
    assertTrue(e.getMessage().startsWith("body must be the JSON of an append"), e.getMessage());
    assertTrue(e.getMessage().contains(said), e.getMessage());
  }

  private void rejected(String json, String message) {
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> command(json), json);
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  private static List<Byte> toList(byte[] bytes) {
    Byte[] boxed = new Byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      boxed[i] = bytes[i];
    }
    return List.of(boxed);
  }
}
