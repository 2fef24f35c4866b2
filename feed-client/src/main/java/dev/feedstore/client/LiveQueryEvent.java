package dev.feedstore.client;

import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.core.query.result.ResultCopy;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link LiveQueryListener} is told: first the {@link Snapshot}, then a {@link Changes} batch
 * per local commit or pulled batch that changed the result (one batch may show several commits,
 * never part of one), a {@link Reset} whenever a recovery rewrote the replica's history (a swap of
 * the authority, a rollback, compacted history it missed, a re-keyed or set-aside block, a policy
 * change), and an {@link Ended} once if the registration stops by itself. Each says the {@link
 * LocalState} it shows. {@link #applyTo} keeps a {@link ResultCopy} of the result. Thread-safe
 * (immutable).
 */
public sealed interface LiveQueryEvent
    permits LiveQueryEvent.Snapshot, LiveQueryEvent.Changes, LiveQueryEvent.Reset, LiveQueryEvent.Ended {

  /** Where the replica stood: the rows of the result after this event are as of this commit. */
  LocalState state();

  /**
   * Brings {@code copy} to the result after this event: loads a snapshot or a reset's rows, applies
   * changes; nothing for {@link Ended}.
   *
   * @throws IllegalStateException if a batch of changes does not fit the copy (it missed an event)
   */
  void applyTo(ResultCopy copy);

  /** The result's rows in the query's order, read from the replica's file. */
  record Snapshot(List<Row> rows, LocalState state) implements LiveQueryEvent {
    /** Checks that the state is given, and copies the rows. */
    public Snapshot {
      rows = List.copyOf(rows);
      Objects.requireNonNull(state, "state");
    }

    @Override
    public void applyTo(ResultCopy copy) {
      copy.load(rows);
    }
  }

  /**
   * The net change of the result since the previous event: rows entered, updated (with the row
   * before) and left. A batch may be empty when only {@link #state()}'s history gap changed.
   */
  record Changes(ChangeBatch changes, LocalState state) implements LiveQueryEvent {
    /** Checks that the changes and the state are given. */
    public Changes {
      Objects.requireNonNull(changes, "changes");
      Objects.requireNonNull(state, "state");
    }

    @Override
    public void applyTo(ResultCopy copy) {
      copy.apply(changes);
    }
  }

  /**
   * The result read again from the replica's file after its history was rewritten: its rows, and
   * the exact difference from the result the previous event showed (possibly none). Applying either
   * gives the same copy.
   */
  record Reset(List<Row> rows, ChangeBatch changes, LocalState state) implements LiveQueryEvent {
    /** Checks that the changes and the state are given, and copies the rows. */
    public Reset {
      rows = List.copyOf(rows);
      Objects.requireNonNull(changes, "changes");
      Objects.requireNonNull(state, "state");
    }

    @Override
    public void applyTo(ResultCopy copy) {
      copy.load(rows);
    }
  }

  /**
   * The registration stopped by itself and tells nothing more: the query matched more documents
   * than the replica's {@code live-query-matches} setting allows (a {@link
   * dev.feedstore.core.LimitExceededException} naming it), or its result could not be kept. {@code
   * state} is the last one told.
   */
  record Ended(RuntimeException cause, LocalState state) implements LiveQueryEvent {
    /** Checks that the cause and the state are given. */
    public Ended {
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(state, "state");
    }

    @Override
    public void applyTo(ResultCopy copy) {
      // nothing changed
    }
  }
}
