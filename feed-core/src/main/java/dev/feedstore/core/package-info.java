/**
 * The feed store's values, shared by every module: what a replica and the authority agree on.
 *
 * <p>Ids: a space ({@link dev.feedstore.core.SpaceId}) holds feeds ({@link dev.feedstore.core.FeedId},
 * labelled with a {@link dev.feedstore.core.Namespace}) that authors ({@link
 * dev.feedstore.core.ActorId}) write blocks to ({@link dev.feedstore.core.Block}, identified by a
 * {@link dev.feedstore.core.BlockKey}, carrying {@link dev.feedstore.core.BlockData} and naming its
 * {@link dev.feedstore.core.Predecessor}). The author numbers its blocks ({@link
 * dev.feedstore.core.Sequence}); the authority gives each one place in its space's order ({@link
 * dev.feedstore.core.Position}) and keeps a running hash of that order ({@link
 * dev.feedstore.core.HistoryChain}) and a token per space ({@link dev.feedstore.core.ServerToken}) by
 * which replicas notice a rollback or a swap. A feed is read in {@link dev.feedstore.core.FeedOrder}.
 *
 * <p>Which feeds a read covers ({@link dev.feedstore.core.Scope}), how a replica replicates a feed
 * ({@link dev.feedstore.core.Replication}), the limits a store or server enforces ({@link
 * dev.feedstore.core.Limits}), and the names of Durable Streams ({@link
 * dev.feedstore.core.StreamName}).
 *
 * <p>Every value is immutable and thread-safe, and checks itself when made: a value that breaks a
 * rule is refused with an {@link dev.feedstore.core.InvalidValueException} naming the field, the rule
 * and the value. A request over a limit gets a {@link dev.feedstore.core.LimitExceededException}
 * naming the setting, and a read below a space's retained history a {@link
 * dev.feedstore.core.CursorCompactedException}.
 */
package dev.feedstore.core;
