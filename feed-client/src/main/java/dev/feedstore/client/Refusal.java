package dev.feedstore.client;

import dev.feedstore.core.SpaceId;
import java.util.Objects;
import java.util.Optional;

/**
 * Something the authority refused, and what that holds back: the authority answered, so this is not
 * an outage, and retrying at once would be refused again. A refused operation is tried again on a
 * slow schedule ({@link SyncSession.Options#refusalRetry()}), at once when the session reconnects
 * (a restarted authority may grant more) or its access token changes, and a space's refusals when
 * its replication policies change. Everything not held back keeps syncing: a space whose pushes
 * are refused keeps pulling. Immutable.
 *
 * @param space the space held back; empty when the whole session is (the authority refused the
 *     session's credentials before any space was named)
 * @param held what is held back
 * @param code the authority's status code, e.g. {@link Code#PERMISSION_DENIED}
 * @param description the authority's description of the refusal
 */
public record Refusal(Optional<SpaceId> space, Held held, Code code, String description) {

  /**
   * Why the authority refused, in the words of its status codes (the gRPC codes, by the same
   * names): what to do about it follows from the code, as each constant says.
   */
  public enum Code {
    /** Not an error; never the code of a refusal the authority sends. */
    OK,
    /** The call was cancelled. */
    CANCELLED,
    /** The authority failed in a way it does not say more about. */
    UNKNOWN,
    /** The request is malformed or names a bad value; sent again unchanged, it is refused again. */
    INVALID_ARGUMENT,
    /** The call ran out of time. */
    DEADLINE_EXCEEDED,
    /** What the request names does not exist, for example a subscription. */
    NOT_FOUND,
    /** What the request would create exists already, for example a block's sequence. */
    ALREADY_EXISTS,
    /** The credentials are known but do not grant this. */
    PERMISSION_DENIED,
    /** A limit is reached: the size of a request, or a rate. */
    RESOURCE_EXHAUSTED,
    /** The state does not allow it until it changes, for example a stream that is over. */
    FAILED_PRECONDITION,
    /** Aborted by a conflict; try again at a higher level. */
    ABORTED,
    /** A value past the valid range. */
    OUT_OF_RANGE,
    /** The authority does not offer this call. */
    UNIMPLEMENTED,
    /** The authority's own fault. */
    INTERNAL,
    /** The authority cannot serve now; the same call may pass later. */
    UNAVAILABLE,
    /** Data is lost or corrupt. */
    DATA_LOSS,
    /** No credentials, or credentials the authority does not know. */
    UNAUTHENTICATED
  }

  /** What a refusal holds back. */
  public enum Held {
    /** Every call of the session. */
    EVERYTHING,
    /** The space's pushes: its local blocks wait. */
    PUSHES,
    /** The space's pulls: it receives nothing new. */
    PULLS,
    /**
     * Some blocks of the space, larger than the authority accepts or in feeds it takes no new
     * blocks in (a closed, deleted or expired stream's): they wait, listed by {@link
     * Replica#refused}, while every other block syncs.
     */
    BLOCKS
  }

  /** Checks that every component is given. */
  public Refusal {
    Objects.requireNonNull(space, "space");
    Objects.requireNonNull(held, "held");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(description, "description");
  }

  @Override
  public String toString() {
    String what = switch (held) {
      case EVERYTHING -> "every call";
      case PUSHES -> "pushes to " + space.map(SpaceId::value).orElse("?");
      case PULLS -> "pulls from " + space.map(SpaceId::value).orElse("?");
      case BLOCKS -> "blocks of " + space.map(SpaceId::value).orElse("?");
    };
    return what + " refused: " + code + ": " + description;
  }
}
