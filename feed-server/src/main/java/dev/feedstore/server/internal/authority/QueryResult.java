package dev.feedstore.server.internal.authority;

import dev.feedstore.core.ServerToken;
import dev.feedstore.server.internal.spaces.Page;
import java.util.OptionalLong;

/**
 * The answer to a Query: a page and the space's server token.
 *
 * @param startCursor the cursor the Query's start time resolved to, when it gave one
 */
public record QueryResult(Page page, ServerToken token, OptionalLong startCursor) {}
