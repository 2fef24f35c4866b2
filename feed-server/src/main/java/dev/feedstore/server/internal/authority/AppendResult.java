package dev.feedstore.server.internal.authority;

import dev.feedstore.core.ServerToken;

/**
 * The answer to an Append.
 *
 * @param positions one position per block of the request, in request order
 * @param token the space's server token
 */
public record AppendResult(long[] positions, ServerToken token) {}
