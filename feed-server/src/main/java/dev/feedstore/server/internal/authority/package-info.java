/**
 * The position authority's rules, with no transport in sight: {@link
 * dev.feedstore.server.internal.authority.PositionAuthority} appends (through the append package),
 * reads pages after a cursor ({@code PageReader}), keeps subscriptions ({@code SubscriptionBook}),
 * compacts and applies retention ({@code Compaction}, {@code RetentionRunner}); its commands and
 * answers are the records beside it ({@code AppendCommand}, {@code ReadRequest}, {@code
 * QueryResult}, ...). Imports append, spaces, errors, monitoring and settings.
 */
package dev.feedstore.server.internal.authority;
