package dev.feedstore.client;

import dev.feedstore.core.BlockKey;
import java.util.List;
import java.util.Objects;

/**
 * An append of an {@link Appender} that the authority did not commit, or may not have: why, in the
 * library's words. The {@link #getCause() cause} is the transport's report of the answer, for logs.
 * Immutable.
 */
public final class AppendFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why an append failed, and so what its writer does next. */
  public enum Reason {
    /**
     * The authority holds some of the blocks' keys with other content ({@link #conflicts()}):
     * another writer took those sequences first. Nothing of the call was stored.
     */
    SEQUENCE_CONFLICT,
    /**
     * An earlier call that names one of its feeds was refused, so this one, whose blocks may follow
     * the refused ones, stored nothing. Make it again after handling that refusal and calling
     * {@link Appender#restart()}.
     */
    ABORTED,
    /**
     * The authority refused the call for another cause ({@link #code()}: a limit, access, a feed
     * that takes no new blocks). Nothing was stored; sent again unchanged, it is refused again.
     */
    REFUSED,
    /**
     * No answer came (the connection was lost, the authority was unavailable or stopping, the call
     * deadline passed): the call may or may not have been committed. Appending the same blocks
     * again is safe: the authority answers a block it holds with the same content with its position.
     */
    UNANSWERED
  }

  /** Why the append failed. */
  private final Reason reason;
  /** The status code of the answer, or of the transport. */
  private final Refusal.Code code;
  /** The keys the authority holds with other content. */
  private final List<BlockKey> conflicts;

  AppendFailedException(String message, Reason reason, Refusal.Code code, List<BlockKey> conflicts, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.code = Objects.requireNonNull(code, "code");
    this.conflicts = List.copyOf(conflicts);
  }

  /** Why the append failed. */
  public Reason reason() {
    return reason;
  }

  /** The authority's status code, or the transport's when no answer came ({@code UNAVAILABLE}, say). */
  public Refusal.Code code() {
    return code;
  }

  /** The keys the authority holds with other content: some for {@link Reason#SEQUENCE_CONFLICT}, none otherwise. */
  public List<BlockKey> conflicts() {
    return conflicts;
  }
}
