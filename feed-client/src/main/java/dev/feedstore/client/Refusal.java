package dev.feedstore.client;

import dev.feedstore.core.SpaceId;
import io.grpc.Status;
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
 * @param code the authority's status code, e.g. {@code PERMISSION_DENIED}
 * @param description the authority's description of the refusal
 */
public record Refusal(Optional<SpaceId> space, Held held, Status.Code code, String description) {

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
