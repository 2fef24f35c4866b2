/**
 * The API's requests checked into the authority's commands, whatever transport carried them
 * ({@link dev.feedstore.server.internal.requests.Requests}): every value against its rule and every
 * limit against its setting, each rejection naming the API's field. The gRPC edge reads its values
 * from {@code feed.v1} messages, the HTTP edge from paths, parameters and JSON bodies. Imports
 * authority, errors and settings.
 */
package dev.feedstore.server.internal.requests;
