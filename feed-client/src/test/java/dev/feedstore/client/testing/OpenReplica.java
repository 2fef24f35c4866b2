package dev.feedstore.client.testing;

import dev.feedstore.client.Replica;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.testing.JavaProcess;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A program that opens a replica's file, appends one block to a new feed and closes it; prints
 * {@code opened} or {@code refused: MESSAGE}. A test runs it as a second process ({@link JavaProcess}).
 */
public final class OpenReplica {
  private OpenReplica() {}

  public static void main(String[] args) {
    try (Replica replica = Replica.open(Path.of(args[0]), ActorId.of("second"))) {
      SpaceId space = SpaceId.of("s");
      FeedId feed = replica.createFeed(space, Optional.empty(), Replication.NONE);
      replica.append(space, feed, BlockData.utf8("from a second process"));
      System.out.println("opened");
    } catch (RuntimeException e) {
      System.out.println("refused: " + e.getMessage());
      System.exit(3);
    }
  }
}
