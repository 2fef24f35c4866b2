/**
 * How the server is configured: {@link dev.feedstore.server.settings.ServerSettings}, every limit
 * and tunable, each one entry of a table ({@link dev.feedstore.server.settings.Setting}) from which
 * the command-line options, their checks and the deployment guide's table are made; who may call
 * ({@link dev.feedstore.server.settings.AccessTokens}, a tokens file, and {@link
 * dev.feedstore.server.settings.JwtSettings}, the keys that sign JWTs). Every layer of the server
 * reads them; they read nothing of the server.
 */
package dev.feedstore.server.settings;
