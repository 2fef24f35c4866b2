package dev.feedstore.server.internal;

import dev.feedstore.core.ServerToken;

/** The answer to a Query: a page and the space's server token. */
public record QueryResult(Page page, ServerToken token) {}
