package dev.feedstore.core.store;

/**
 * The replica's durable store of feeds and blocks: an {@link AuthorityStore} whose transactions
 * offer the replica's views as well ({@link StoreTransaction}), so one store (one schema) can back a
 * replica or an authority. All access goes through transactions: {@link #read} sees one consistent
 * snapshot; {@link #write} commits all of its changes or none of them.
 *
 * <p>Implementations are thread-safe. Writes are serialized; reads may run beside a write and see
 * the state before it. The work must use only the transaction it is given, and must not keep it
 * after it returns.
 */
public interface FeedStore extends AuthorityStore<StoreTransaction> {

  /**
   * Like {@link #write}, but the commit may return before it is on disk: for changes that can be
   * made again, such as a replica's copy of blocks the authority holds and the sync state that goes
   * with them. A crash of the process loses nothing; a power cut may lose this commit together with
   * the relaxed commits after it, but never a commit before it, never part of one, and never one
   * that a later {@link #write} followed: that write makes everything before it durable. A store
   * that cannot relax durability runs a plain {@link #write}.
   *
   * @throws StoreException if the storage fails (then nothing was committed)
   */
  default <T> T writeRelaxed(Work<? super StoreTransaction, T> work) {
    return write(work);
  }
}
