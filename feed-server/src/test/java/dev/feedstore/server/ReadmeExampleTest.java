package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.server.testing.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grpcurl calls documented in the README (Append, Query, Watch) and in {@code docs/retention.md}
 * (a Query from a time), sent as grpcurl sends them: their JSON parsed with protobuf's JSON mapping
 * (grpcurl uses the same), against a server, over a socket.
 */
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void theDocumentedGrpcurlCallsWork() throws Exception {
    List<String> bodies = new ArrayList<>(grpcurlBodies(document("README.md")));
    assertEquals(3, bodies.size(), bodies.toString()); // Append, Query, Watch
    List<String> fromTime = grpcurlBodies(document("docs/retention.md"));
    assertEquals(1, fromTime.size(), fromTime.toString()); // Query from a time
    bodies.addAll(fromTime);
    AppendRequest.Builder append = AppendRequest.newBuilder();
    JsonFormat.parser().merge(bodies.get(0), append);
    QueryRequest.Builder query = QueryRequest.newBuilder();
    JsonFormat.parser().merge(bodies.get(1), query);
    JsonFormat.parser().merge(bodies.get(2), dev.feedstore.proto.v1.WatchRequest.newBuilder());
    QueryRequest.Builder since = QueryRequest.newBuilder();
    JsonFormat.parser().merge(bodies.get(3), since);

    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().start()) {
      assertEquals(List.of(1L), t.blocking().append(append.build()).getPositionsList());
      QueryResponse response = t.blocking().query(query.build());

      assertEquals(1, response.getBlocksCount());
      assertEquals("hello", response.getBlocks(0).getData().toStringUtf8());
      assertTrue(JsonFormat.printer().print(response).contains("\"aGVsbG8=\""));
      QueryResponse sinceResponse = t.blocking().query(since.build());
      assertTrue(sinceResponse.hasStartCursor(), sinceResponse.toString());
      assertEquals(1, sinceResponse.getBlocksCount(), "the block was received after the documented time");
    }
  }

  private static String document(String path) throws IOException {
    return Files.readString(Path.of("..").resolve(path), StandardCharsets.UTF_8);
  }

  static List<String> grpcurlBodies(String readme) {
    Matcher matcher = Pattern.compile("-d '(\\{.*?\\})'", Pattern.DOTALL).matcher(readme);
    List<String> bodies = new ArrayList<>();
    while (matcher.find()) {
      bodies.add(matcher.group(1));
    }
    return bodies;
  }
}
