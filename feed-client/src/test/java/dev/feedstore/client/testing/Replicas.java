package dev.feedstore.client.testing;

import dev.feedstore.client.Replica;
import dev.feedstore.client.internal.ClientAccess;
import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.Authority;
import dev.feedstore.testing.DatabaseFiles;
import dev.feedstore.testing.SyncDriver;
import io.grpc.Channel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Opens replicas in a directory and remembers what the test wrote through them. Not thread-safe. */
public final class Replicas implements AutoCloseable {
  private final Path dir;
  private final List<Replica> open = new ArrayList<>();
  private final List<String> written = new ArrayList<>();

  public Replicas(Path dir) {
    this.dir = dir;
  }

  /**
   * A driver of replicas' sync of {@code space}, one step at a time, with the authority at the other
   * end of {@code channel} (the caller keeps the channel).
   */
  public static SyncDriver<Replica> driver(Channel channel, SpaceId space) {
    return new SyncDriver<>(new GrpcAuthority(channel), replica -> ClientAccess.get().sync(replica, space),
        GrpcAuthority.DEFAULT_APPENDS_IN_FLIGHT);
  }

  /** A driver of replicas' sync of {@code space}, one step at a time, with {@code authority}. */
  public static SyncDriver<Replica> driver(Authority authority, SpaceId space) {
    return new SyncDriver<>(authority, replica -> ClientAccess.get().sync(replica, space));
  }

  public Replica open(String actor) {
    return track(Replica.open(file(actor), ActorId.of(actor)));
  }

  public Replica open(String actor, int pullLimit, int pushLimit) {
    return track(Replica.builder(file(actor)).actorId(ActorId.of(actor)).syncBatches(pullLimit, pushLimit).build());
  }

  public Path file(String actor) {
    return dir.resolve(actor + ".db");
  }

  /** Closes the replica, copies its file aside, and returns the copy (a local backup). */
  public Path backup(Replica replica, String name) {
    replica.close();
    open.remove(replica);
    Path copy = dir.resolve(name + ".backup.db");
    DatabaseFiles.replace(copy, replica.file());
    return copy;
  }

  /** Replaces the replica's file with {@code backup} and opens it. */
  public Replica restore(String actor, Path backup) {
    DatabaseFiles.replace(file(actor), backup);
    return open(actor);
  }

  /** Appends {@code count} blocks whose data are "label-i", remembering them as written. */
  public List<String> append(Replica replica, SpaceId space, FeedId feed, String label, int count) {
    List<String> data = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String text = label + "-" + i;
      replica.append(space, feed, BlockData.utf8(text));
      data.add(text);
    }
    written.addAll(data);
    return data;
  }

  /** Everything appended through {@link #append}. */
  public List<String> written() {
    return written;
  }

  @Override
  public void close() {
    open.forEach(Replica::close);
    open.clear();
  }

  private Replica track(Replica replica) {
    open.add(replica);
    return replica;
  }

}
