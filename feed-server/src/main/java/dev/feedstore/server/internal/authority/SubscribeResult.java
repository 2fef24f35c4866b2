package dev.feedstore.server.internal.authority;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.store.Subscription;

/**
 * The answer to Subscribe: the stored subscription and the space's server token.
 *
 * @param created false when a live durable subscription of the requested name was returned
 */
public record SubscribeResult(Subscription subscription, ServerToken token, boolean created) {}
