/**
 * Why a call fails, the same for every transport: the server's exceptions, and the {@link
 * dev.feedstore.server.internal.errors.CallRefusal} that reports any failure with an {@link
 * dev.feedstore.server.internal.errors.ErrorCode}, which the gRPC edge maps to a status and the HTTP
 * edge to a status and a JSON body. Below everything that throws them; imports settings only.
 */
package dev.feedstore.server.internal.errors;
