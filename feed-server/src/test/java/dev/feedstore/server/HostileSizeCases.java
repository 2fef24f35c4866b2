package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static io.grpc.Status.Code.RESOURCE_EXHAUSTED;

import com.google.protobuf.ByteString;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.HostileCase;
import dev.feedstore.server.testing.Wire;
import java.util.ArrayList;
import java.util.List;

/**
 * A message of every RPC just above the default {@code max-message-bytes} (16 MiB), which gRPC
 * refuses before the service sees it: {@code RESOURCE_EXHAUSTED} with gRPC's own description, which
 * names the limit's value (not its flag; see Limits in docs/authority.md).
 */
final class HostileSizeCases {
  private static final int OVER = MAX_MESSAGE_BYTES.defaultValue() + 1024;
  private static final String REFUSED = "gRPC message exceeds maximum size " + MAX_MESSAGE_BYTES.defaultValue();

  private HostileSizeCases() {}

  static List<HostileCase> all(HostileRequests requests) {
    String text = "x".repeat(OVER);
    List<dev.feedstore.proto.v1.Block> blocks = new ArrayList<>();
    ByteString mib = ByteString.copyFrom(new byte[1 << 20]);
    for (int i = 0; blocks.size() * (1 << 20) < OVER; i++) {
      blocks.add(Wire.block(requests.feed, "big", i).toBuilder().setData(mib).build());
    }
    AppendRequest append = Wire.append(HostileRequests.SPACE, blocks);
    return List.of(
        HostileCase.of("Append: a message of " + append.getSerializedSize() + " bytes (17 blocks of 1 MiB)",
            HostileRequests.append(append), RESOURCE_EXHAUSTED, REFUSED),
        HostileCase.of("Query: a message above 16 MiB", HostileRequests.query(requests.query().toBuilder()
            .setExpectedServerToken(text).build()), RESOURCE_EXHAUSTED, REFUSED),
        HostileCase.of("Watch: a message above 16 MiB", HostileRequests.watch(requests.query().toBuilder()
            .setExpectedServerToken(text).build()), RESOURCE_EXHAUSTED, REFUSED),
        HostileCase.of("Subscribe: a message above 16 MiB", HostileRequests.subscribe(requests.subscribe().toBuilder()
            .setRequestId(text).build()), RESOURCE_EXHAUSTED, REFUSED),
        HostileCase.of("ListFeeds: a message above 16 MiB", HostileRequests.listFeeds(requests.listFeeds().toBuilder()
            .setSpaceId(text).build()), RESOURCE_EXHAUSTED, REFUSED));
  }
}
