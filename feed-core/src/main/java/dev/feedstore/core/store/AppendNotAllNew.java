package dev.feedstore.core.store;

/**
 * Rolls back the write of {@link AuthorityStore#appendAllNew} whose keys were not all new or whose
 * feeds passed the limit; never leaves it. Immutable.
 */
final class AppendNotAllNew extends RuntimeException {
  private static final long serialVersionUID = 1L;

  AppendNotAllNew() {
    super("an append's key was stored already, or its feeds passed the limit", null, false, false);
  }
}
