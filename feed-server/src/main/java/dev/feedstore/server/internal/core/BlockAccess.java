package dev.feedstore.server.internal.core;

import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.append.FeedWriteCheck;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.SubscribeCommand;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which blocks a caller may read and write, for every edge alike: the {@link Caller}'s grants
 * applied to the scope of a read (its subscription's scope looked up without using it) and to the
 * feeds of an append, with the namespaces the store holds for them. A caller whose grants cover the
 * whole space costs no lookup. Each method runs before the call does any work, so a refused call
 * changes nothing; an append's feeds are checked in its own transaction ({@link FeedWriteCheck}).
 *
 * <p>Thread-safe. The read checks block on the store for a caller with namespace grants.
 */
public final class BlockAccess {
  private final PositionAuthority authority;

  BlockAccess(PositionAuthority authority) {
    this.authority = authority;
  }

  /**
   * Passes when the caller may read what {@code request} reads (Query, Watch, an HTTP page or event
   * stream).
   *
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException naming what it may not read
   * @throws dev.feedstore.server.internal.errors.SubscriptionNotFoundException if the scope names a
   *     subscription that is unknown or expired
   */
  public void read(Caller caller, String method, ReadRequest request) {
    SpaceId spaceId = request.spaceId();
    Optional<String> subscription = request.scope().subscriptionId();
    checkRead(caller, method, spaceId, () -> subscription.isPresent()
        ? authority.subscriptionScope(spaceId, subscription.get()) : request.scope().direct());
  }

  /** Passes when the caller may read {@code scope}, the scope of a live query over {@code spaceId}. */
  public void liveQuery(Caller caller, SpaceId spaceId, Scope scope) {
    checkRead(caller, "LiveQuery", spaceId, () -> scope);
  }

  /** Passes when the caller may read the scope {@code command} subscribes to. */
  public void subscribe(Caller caller, SubscribeCommand command) {
    checkRead(caller, "Subscribe", command.spaceId(), command::scope);
  }

  /** Passes when the caller may read the scope of the subscription it acknowledges. */
  public void ack(Caller caller, SpaceId spaceId, String subscriptionId) {
    checkRead(caller, "Ack", spaceId, () -> authority.subscriptionScope(spaceId, subscriptionId));
  }

  /** Passes when the caller may read the feeds ListFeeds lists: those of {@code namespace}, or every feed. */
  public void listFeeds(Caller caller, SpaceId spaceId, Optional<Namespace> namespace) {
    if (namespace.isPresent()) {
      checkRead(caller, "ListFeeds", spaceId, () -> Scope.namespace(namespace.get()));
    } else {
      caller.checkWholeSpace("ListFeeds", spaceId.value(), false,
          "lists every feed of the space (it names no namespace)");
    }
  }

  /**
   * {@code command}, checked in its transaction against the caller's write grants; as it is when
   * they cover the whole space.
   *
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException if the caller may write to no
   *     feed of the space
   */
  public AppendCommand append(Caller caller, String method, AppendCommand command) {
    String space = command.spaceId().value();
    caller.check(method, space, true);
    if (caller.mayUseWholeSpace(space, true)) {
      return command;
    }
    return command.withWriteCheck((spaceId, feeds) -> caller.checkWrite(method, spaceId, feeds));
  }

  /**
   * Checks a read of the scope {@code scope} gives, which is looked up only for a known caller whose
   * grants in the space are not space-wide.
   */
  private void checkRead(Caller caller, String method, SpaceId spaceId, Supplier<Scope> scope) {
    caller.check(method, spaceId.value(), false);
    Scope read = caller.mayUseWholeSpace(spaceId.value(), false) ? Scope.WHOLE_SPACE : scope.get();
    caller.checkRead(method, spaceId, read, feeds -> authority.feedNamespaces(spaceId, feeds));
  }
}
