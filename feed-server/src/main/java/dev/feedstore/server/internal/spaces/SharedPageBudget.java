package dev.feedstore.server.internal.spaces;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The memory that the pages kept for streams behind ({@link SharedPages}) may hold in all spaces
 * together ({@code shared-pages-bytes}): each space keeps at most {@code shared-pages} of them, and
 * this bounds their sum however many spaces are watched. A page is charged when a space keeps it and
 * credited when it is dropped; a page that would pass the budget makes room by dropping the pages
 * kept longest, of whichever space, and a page larger than the whole budget is not kept (its stream
 * sends it unshared). The oldest go first because streams behind move forward: the pages they read
 * longest ago are the ones they have passed.
 *
 * <p>Thread-safe: charging and crediting take a short lock of the budget's own, once per page read
 * from storage (not per stream that sends it).
 */
final class SharedPageBudget {
  private final long limit;
  private final Object lock = new Object();
  /** Guarded by lock: the pages charged, oldest first. */
  private final Set<SharedPages.Shared> kept = new LinkedHashSet<>();
  /** Guarded by lock: the bytes of {@link #kept}. */
  private long used;

  /** @param limit the most bytes the kept pages may hold ({@code shared-pages-bytes}); 0 keeps none */
  SharedPageBudget(long limit) {
    this.limit = limit;
  }

  /** The bytes the kept pages hold now. */
  long used() {
    synchronized (lock) {
      return used;
    }
  }

  /**
   * Charges {@code page}, which its space is about to keep, dropping the pages kept longest (of any
   * space) until it fits. Drops only pages their spaces still keep: one being replaced meanwhile is
   * credited by its space.
   *
   * @return false when it does not fit even so: the space must not keep it
   */
  boolean charge(SharedPages.Shared page) {
    synchronized (lock) {
      if (page.bytes() > limit) {
        return false;
      }
      for (Iterator<SharedPages.Shared> oldest = kept.iterator(); used + page.bytes() > limit && oldest.hasNext(); ) {
        SharedPages.Shared victim = oldest.next();
        if (victim.drop()) {
          oldest.remove();
          used -= victim.bytes();
        }
      }
      if (used + page.bytes() > limit) {
        return false;
      }
      kept.add(page);
      used += page.bytes();
      return true;
    }
  }

  /** Credits a page its space no longer keeps (replaced or cleared); idempotent. */
  void credit(SharedPages.Shared page) {
    synchronized (lock) {
      if (kept.remove(page)) {
        used -= page.bytes();
      }
    }
  }
}
