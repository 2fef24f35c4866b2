/**
 * A space as the server holds it in memory: {@link dev.feedstore.server.internal.spaces.Spaces}
 * loads and keeps each {@link dev.feedstore.server.internal.spaces.SpaceState} (its token, floor and
 * {@link dev.feedstore.server.internal.spaces.SpaceTail}); the tail keeps the recently committed
 * blocks as {@code TailEntry}s (domain blocks) and the {@code SharedPages} of streams behind, each
 * with the {@code Encodings} the transports made from them once for all streams, when first needed.
 * Imports monitoring and settings only.
 */
package dev.feedstore.server.internal.spaces;
