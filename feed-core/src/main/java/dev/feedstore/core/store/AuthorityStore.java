package dev.feedstore.core.store;

import dev.feedstore.core.SpaceId;

import java.util.List;
import java.util.Optional;

/**
 * A durable store the position authority can serve from: it runs work in transactions that offer
 * at least the authority's views ({@link AuthorityTransaction}). {@link #read} sees one consistent
 * snapshot; {@link #write} commits all of its changes or none of them.
 *
 * <p>The type parameter is the type of the store's transactions: a store made for the authority
 * alone has {@code AuthorityStore<AuthorityTransaction>}; the replica's store ({@link FeedStore}) is
 * an {@code AuthorityStore<StoreTransaction>}, whose transactions offer the replica's views too. The
 * authority takes an {@code AuthorityStore<?>}, and its work ({@code Work<AuthorityTransaction, T>},
 * or a lambda) runs on either and sees only the authority's views.
 *
 * <p>Implementations are thread-safe. Writes that claim positions of one space are serialized
 * ({@link BlockLog#claimPositions}), across processes that share the store too; reads may run beside
 * a write and see the state before it. The work must use only the transaction it is given, and must not keep it
 * after it returns.
 *
 * @param <X> the type of the store's transactions
 */
public interface AuthorityStore<X extends AuthorityTransaction> extends AutoCloseable {

  /**
   * A unit of work against one transaction.
   *
   * @param <X> the transaction type the work needs
   * @param <T> what the work returns
   */
  @FunctionalInterface
  interface Work<X, T> {
    /**
     * Does the work with {@code tx}, which is valid only until it returns.
     *
     * @return what the work gives its caller, passed on by {@link #read} or {@link #write}
     */
    T run(X tx);
  }

  /**
   * Runs {@code work} in a read-only transaction. Blocks while the store is opening; never waits
   * for writers. Reads work while writes fail on a full disk or a read-only file.
   *
   * @throws StorageFaultException if reading fails on the storage (an I/O error, a damaged file)
   * @throws StoreException if the storage fails otherwise; exceptions of the work pass through unchanged
   */
  <T> T read(Work<? super X, T> work);

  /**
   * Runs {@code work} in a write transaction and commits it when the work returns. If the work
   * throws, everything it changed is rolled back and the exception passes through. Blocks while
   * another write runs. A write that failed on the storage leaves
   * the store usable: the next one succeeds once the cause is gone.
   *
   * @throws StorageFaultException if the storage cannot take the write (disk full, read-only file,
   *     I/O error, damaged file); nothing was committed
   * @throws StoreException if the storage fails otherwise (then nothing was committed)
   */
  <T> T write(Work<? super X, T> work);

  /**
   * Stores the appends as {@link AuthorityTransaction#append} does, in a write of their own that
   * commits only if every key was new and no space holds more than {@code feedsPerSpace} feeds with
   * those it created ({@link SpaceAppend.Stored#allNewWithin}); otherwise it stores nothing. For a
   * group whose appends need no other check in their transaction (their spaces are stored, their
   * callers may write to every feed, no feed of theirs can be closed), so that a store across a
   * network commits it in the round trip of the append itself. The default runs {@link #write}.
   *
   * @param appends as {@link AuthorityTransaction#append} takes them, ordered by space
   * @return what was done for each append, in their order; empty when it stored nothing: then the
   *     caller runs the appends in a transaction of its own to tell whose key was held, or which
   *     append passed the limit
   * @throws StorageFaultException if the storage cannot take the write, as {@link #write}; nothing was committed
   * @throws StoreException if the storage fails otherwise (then nothing was committed)
   */
  default Optional<List<SpaceAppend.Stored>> appendAllNew(List<SpaceAppend> appends,
      long feedsPerSpace) {
    try {
      return Optional.of(write(tx -> {
        List<SpaceAppend.Stored> stored = tx.append(appends);
        for (SpaceAppend.Stored one : stored) {
          if (!one.allNewWithin(feedsPerSpace)) {
            throw new AppendNotAllNew();
          }
        }
        return stored;
      }));
    } catch (AppendNotAllNew e) {
      return Optional.empty();
    }
  }

  /**
   * Tells whether the store can be written now, by committing a tiny real write that changes nothing
   * a reader sees (a server runs it at start and periodically, for its health). Cheap: one small
   * durable commit. Blocks while another write runs. The default runs an empty write transaction,
   * which finds only a store that cannot begin one; stores override it with a write that reaches
   * the disk, and wrappers delegate it.
   *
   * @throws StorageFaultException if the storage cannot take writes now (full, read-only, I/O error)
   * @throws StoreException if the store fails otherwise (then nothing was committed)
   */
  default void probeWrite() {
    write(tx -> null);
  }

  /**
   * Tells {@code listener} of the commits other processes make to this store from now on, when the
   * store is one that several processes share and that can tell (PostgreSQL's {@code NOTIFY}); the
   * default tells nothing, which is right for a store no other process writes. A store that may have
   * missed commits says so ({@link CommitListener#missedCommits}). One listener per store: another
   * call replaces it, and null stops telling. Does not block.
   */
  default void listen(CommitListener listener) {}

  /**
   * The listener of {@link #listen} is told of other processes' commits in {@code spaceId} from now
   * on: when this returns, a commit made after it is told (or, if the store cannot hear for a while,
   * {@link CommitListener#missedCommits} follows), so a read of the space made after it misses nothing.
   * A store tells only of the spaces followed, so that a process is not woken by commits in spaces it
   * does not hold. Following a space followed already does nothing. May block for a round trip to
   * the store; the default does nothing, as {@link #listen}'s.
   */
  default void follow(SpaceId spaceId) {}

  /** No longer tells of commits in {@code spaceId} ({@link #follow}); soon, not at once. Does not block. */
  default void unfollow(SpaceId spaceId) {}

  /** Closes the store; waits for running transactions. Idempotent. */
  @Override
  void close();
}
