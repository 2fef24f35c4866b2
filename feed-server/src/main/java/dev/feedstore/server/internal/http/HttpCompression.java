package dev.feedstore.server.internal.http;

import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.server.CompressionConfig;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.server.Handler;

/**
 * gzip for the HTTP API's answers, on Jetty's {@code CompressionHandler}: an answer of at least
 * {@code compress-min-bytes} goes gzipped when the request's {@code Accept-Encoding} takes gzip
 * (with {@code Vary: Accept-Encoding}, and an {@code ETag} that names the encoding, which {@code
 * If-None-Match} matches as sent); a request body sent with {@code Content-Encoding: gzip} is read
 * inflated. Event streams ({@code text/event-stream}) and media that are compressed already go as
 * they are here: each live block's event is encoded once for all the streams of its space, and
 * compressing it per stream would spend a reader's worth of CPU on each; {@code sse-gzip-level}
 * gzips event streams in {@link SseWriter} instead, flushing each write. Stateless.
 */
final class HttpCompression {
  private HttpCompression() {}

  /** {@code api}, answering through gzip as above; {@code api} itself when {@code minBytes} is 0. */
  static Handler wrap(Handler api, int minBytes) {
    if (minBytes == 0) {
      return api;
    }
    GzipCompression gzip = new GzipCompression();
    gzip.setMinCompressSize(minBytes);
    CompressionHandler compression = new CompressionHandler(api);
    compression.putCompression(gzip);
    compression.putConfiguration("/", CompressionConfig.builder().defaults().build());
    return compression;
  }
}
