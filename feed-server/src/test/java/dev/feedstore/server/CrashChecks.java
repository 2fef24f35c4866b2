package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.proto.v1.Block;
import dev.feedstore.server.testing.Calls;
import io.grpc.Channel;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the crash tests check after every restart: every block a client saw acknowledged is stored
 * at the position it was given, with the same content; positions are dense and unique; a call the
 * crash cut (in doubt) committed all its blocks or none; and what was read after one crash is
 * unchanged after the next. Not thread-safe: the test thread uses it.
 */
final class CrashChecks {
  /** Every block read after a restart, by key: later reads must find it unchanged. */
  private final Map<String, Block> seen = new HashMap<>();
  int inDoubtCommitted;
  int inDoubtAbsent;

  /**
   * Checks a read of the whole space against what was acknowledged before it began, the in-doubt
   * batches and the earlier reads.
   */
  void check(Map<String, Block> stored, Map<String, Block> acknowledged, List<CrashAppender> appenders, String when) {
    long expected = 1;
    for (Block block : stored.values()) {
      assertEquals(expected++, block.getPosition(), when + ": positions are dense and unique");
    }
    for (Map.Entry<String, Block> ack : acknowledged.entrySet()) {
      Block read = stored.get(ack.getKey());
      assertTrue(read == null || read.hasReceivedAt(), when + ": a stored block carries its receive time: " + ack.getKey());
      // What a client saw acknowledged is what it sent with its position; the receive time is the server's.
      assertEquals(ack.getValue(), read == null ? null : read.toBuilder().clearReceivedAt().build(),
          when + ": acknowledged block " + ack.getKey());
    }
    for (CrashAppender appender : appenders) {
      for (List<Block> batch : appender.inDoubt) {
        long present = batch.stream().filter(b -> stored.containsKey(CrashAppender.key(b))).count();
        assertTrue(present == 0 || present == batch.size(),
            when + ": a batch cut by the crash has " + present + " of its " + batch.size() + " blocks stored");
        if (!acknowledged.containsKey(CrashAppender.key(batch.get(0)))) {
          if (present == 0) {
            inDoubtAbsent++;
          } else {
            inDoubtCommitted++;
          }
        }
      }
    }
    for (Map.Entry<String, Block> earlier : seen.entrySet()) {
      assertEquals(earlier.getValue(), stored.get(earlier.getKey()), when + ": block read before " + earlier.getKey());
    }
    seen.putAll(stored);
  }

  /**
   * Takes what the clients saw acknowledged, then reads the whole space, and checks the read against
   * it; returns the read. In that order because a client's call may still be in flight after a
   * restart (one made while the server was down waits for the next server, and is answered by it
   * whenever its connection comes back): what is acknowledged while the read runs may lie past the
   * blocks the read saw, so only what was acknowledged before the read began is required of it.
   */
  Map<String, Block> checkRead(Channel channel, CrashClients clients, String when) {
    Map<String, Block> acknowledged = clients.acknowledged();
    Map<String, Block> stored = read(channel);
    check(stored, acknowledged, clients.appenders, when);
    return stored;
  }

  /** Every block of the crash tests' space, by key, in position order. */
  static Map<String, Block> read(Channel channel) {
    Map<String, Block> blocks = new LinkedHashMap<>();
    Calls.allBlocks(channel, CrashIT.SPACE).forEach(block -> blocks.put(CrashAppender.key(block), block));
    return blocks;
  }
}
