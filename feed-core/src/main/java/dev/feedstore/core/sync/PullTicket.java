package dev.feedstore.core.sync;

import dev.feedstore.core.Position;

/**
 * A pull in flight: the request to send and the state it was made from. An answer is applied only
 * if that state is still current, so that answers to outdated requests cannot move the cursor.
 *
 * @param request what to ask the authority
 * @param epoch the sync epoch when the request was made (it changes on every recovery)
 * @param probe true when the request only asks for the authority's highest position
 * @param knownMax the replica's highest position when the request was made: every such position
 *     came from an answer of the authority, so a healthy authority's highest position is at least
 *     this in any later answer
 */
public record PullTicket(PullRequest request, long epoch, boolean probe, Position knownMax) {

  /** The cursor the request reads after. */
  public Position cursor() {
    return request.cursor();
  }

  /** The ticket for the next page of the same stream, after {@code cursor}. */
  PullTicket continueAt(Position cursor) {
    return new PullTicket(new PullRequest(request.spaceId(), request.scope(), cursor, request.limit(),
        request.expectedServerToken()), epoch, false, knownMax);
  }
}
