/**
 * How appends are committed: the {@link dev.feedstore.server.internal.append.AppendQueue} gathers
 * the appends that arrive while a group commits into the next group, {@link
 * dev.feedstore.server.internal.append.AppendGroup} commits a group in one write transaction, a
 * {@code SpaceRun} per space, and falls back to {@code AppendWork}, block by block, when a key is
 * stored already. {@code ClosedFeeds} says which feeds take no new blocks. Imports spaces, errors,
 * monitoring and settings; the authority drives it.
 */
package dev.feedstore.server.internal.append;
