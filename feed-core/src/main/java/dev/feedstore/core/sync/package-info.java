/**
 * The replica's sync and recovery logic (DESIGN section 5), as plain code over a {@link
 * dev.feedstore.core.store.FeedStore} and an {@link dev.feedstore.core.sync.Authority}: no threads,
 * no timers, no network. {@link dev.feedstore.core.sync.SpaceSync} offers push and pull one step at
 * a time, so a test or a simulation can schedule faults between steps; the client library drives
 * the same steps from its connection loop.
 */
package dev.feedstore.core.sync;
