package dev.feedstore.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Optional;
import org.junit.jupiter.api.function.Executable;

/**
 * The feeds the tests of namespace grants read and write: in space {@value #SPACE}, one feed of
 * namespace {@code chat}, one of {@code notes} and one without a namespace, each holding blocks 0
 * and 1 of actor "a", appended over gRPC by a caller that may write the whole space (positions 1 to
 * 6, in that order).
 */
public record NamespacedFeeds(FeedId chat, FeedId notes, FeedId plain) {
  public static final String SPACE = "team";

  /** Appends the three feeds with {@code owner}, whose token may write the whole space. */
  public static NamespacedFeeds append(FeedSyncGrpc.FeedSyncBlockingStub owner) {
    NamespacedFeeds feeds = new NamespacedFeeds(TestBlocks.feedId(), TestBlocks.feedId(), TestBlocks.feedId());
    owner.append(append(Optional.of("chat"), feeds.chat, 0, 2));
    owner.append(append(Optional.of("notes"), feeds.notes, 0, 2));
    owner.append(append(Optional.empty(), feeds.plain, 0, 2));
    return feeds;
  }

  /** An Append to {@code feed} of {@link #SPACE}: {@code count} blocks of actor "a" from {@code first}, in {@code namespace}. */
  public static AppendRequest append(Optional<String> namespace, FeedId feed, long first, int count) {
    AppendRequest.Builder request = Wire.append(SPACE, Wire.blocks(feed, "a", first, count)).toBuilder();
    namespace.ifPresent(request::setNamespace);
    return request.build();
  }

  /** Asserts that {@code call} fails with {@code code} and a description that holds {@code text}. */
  public static void assertRefused(Status.Code code, String text, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e.getStatus().toString());
    assertTrue(e.getStatus().getDescription().contains(text), e.getStatus().getDescription());
  }
}
