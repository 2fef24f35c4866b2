package dev.feedstore.server.internal.authority;

import dev.feedstore.core.ServerToken;
import dev.feedstore.server.internal.append.AppendWork;

/**
 * The answer to an Append.
 *
 * @param positions one position per block of the request, in request order
 * @param receivedAt one receive time per block of the request, in request order: when the
 *     authority positioned it (Unix milliseconds of its clock), {@link #UNKNOWN_RECEIVE_TIME} for a
 *     block held already whose receive time the store does not know
 * @param token the space's server token
 */
public record AppendResult(long[] positions, long[] receivedAt, ServerToken token) {
  /** A receive time the store does not know, as the wire says it. */
  public static final long UNKNOWN_RECEIVE_TIME = AppendWork.Outcome.UNKNOWN_RECEIVE_TIME;
}
