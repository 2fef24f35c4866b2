package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.server.testing.Census;
import dev.feedstore.server.testing.RawCalls;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests that are not one well-formed message of the RPC's request type, as only a hand-made
 * client sends them: bytes that do not parse (invalid UTF-8 in a string field, a truncated field,
 * garbage) and no request message are {@code INVALID_ARGUMENT} naming the request type (gRPC itself
 * answered UNKNOWN "Application error processing RPC" and logged a SEVERE stack trace per call, or
 * INTERNAL); two request messages gRPC resets itself ({@code CANCELLED} at the client). Each writes
 * nothing, logs no warning of gRPC's, and the server keeps serving.
 */
class MalformedRequestTest {
  /** Field 2 (space_id in every request) holding the bytes ff fe: not UTF-8. */
  private static final byte[] BAD_UTF8 = {0x12, 0x02, (byte) 0xff, (byte) 0xfe};
  /** Field 2 announcing 10 bytes and carrying 1. */
  private static final byte[] TRUNCATED = {0x12, 0x0a, 0x61};
  private static final byte[] GARBAGE = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
  /** A well-formed request of any of the five types: space_id "s". */
  private static final byte[] SPACE_S = {0x12, 0x01, 0x73};

  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();
  final List<LogRecord> grpcLog = new ArrayList<>();
  final Handler grpcLogHandler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
        grpcLog.add(record);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
    Logger.getLogger("io.grpc").addHandler(grpcLogHandler);
  }

  @AfterEach
  void stop() {
    Logger.getLogger("io.grpc").removeHandler(grpcLogHandler);
    t.close();
  }

  record Case(String what, List<byte[]> messages, Status.Code code, String fragment) {}

  @TestFactory
  Stream<DynamicTest> aMalformedRequestIsInvalidArgumentNamingItsTypeAndWritesNothing() {
    List<MethodDescriptor<?, ?>> methods = List.of(FeedSyncGrpc.getAppendMethod(), FeedSyncGrpc.getQueryMethod(),
        FeedSyncGrpc.getSubscribeMethod(), FeedSyncGrpc.getListFeedsMethod(), FeedSyncGrpc.getWatchMethod());
    List<Case> cases = List.of(
        new Case("invalid UTF-8", List.of(BAD_UTF8), Status.Code.INVALID_ARGUMENT,
            "is not a well-formed feed.v1.%s: Protocol message had invalid UTF-8"),
        new Case("a truncated field", List.of(TRUNCATED), Status.Code.INVALID_ARGUMENT,
            "is not a well-formed feed.v1.%s: While parsing a protocol message, the input ended unexpectedly"),
        new Case("garbage", List.of(GARBAGE), Status.Code.INVALID_ARGUMENT, "is not a well-formed feed.v1.%s"),
        new Case("no request", List.of(), Status.Code.INVALID_ARGUMENT, "must carry one feed.v1.%s, got none"),
        new Case("two requests", List.of(SPACE_S, SPACE_S), Status.Code.CANCELLED, "RST_STREAM"));
    return methods.stream().flatMap(method -> cases.stream().map(c -> DynamicTest.dynamicTest(
        method.getBareMethodName() + ": " + c.what(), () -> {
          String type = method.getBareMethodName() + "Request";
          Census before = Census.of(t.file);

          Status status = RawCalls.call(t.channel, method, c.messages());

          assertEquals(c.code(), status.getCode(), status.toString());
          assertTrue(status.getDescription().contains(String.format(c.fragment(), type)), status.getDescription());
          assertEquals("", Census.of(t.file).changesSince(before));
          assertEquals(List.of(), grpcLog.stream().map(LogRecord::getMessage).toList(), "gRPC logged no warning");
          assertEquals(1, t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("s").build()).getFeedsCount());
        })));
  }
}
