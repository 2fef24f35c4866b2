/**
 * Whether the server's storage takes writes and serves reads: {@link
 * dev.feedstore.server.internal.storage.StorageHealth}, told by every transaction of the {@code
 * MonitoredStore} and by a write probe. Imports monitoring and settings only.
 */
package dev.feedstore.server.internal.storage;
