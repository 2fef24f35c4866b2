/**
 * Live streams, whatever their transport: {@link dev.feedstore.server.internal.live.Watches} admits
 * and tracks them, a {@link dev.feedstore.server.internal.live.LiveFollower} sends each one its
 * history and then the space's live tail, through the {@link
 * dev.feedstore.server.internal.live.LiveSink} of its transport. How every live stream sends (a
 * follower, and a live query's subscription too) is a {@link
 * dev.feedstore.server.internal.live.LiveStream}: on the drains of a {@code DrainQueue}, each
 * stream's turns serialized by a {@code SerialDrain}, only while its {@link
 * dev.feedstore.server.internal.live.StreamSink} is ready, with heartbeats and one end. Imports authority, spaces, access,
 * errors, monitoring and settings.
 */
package dev.feedstore.server.internal.live;
