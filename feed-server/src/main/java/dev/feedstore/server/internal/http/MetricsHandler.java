package dev.feedstore.server.internal.http;

import dev.feedstore.server.internal.monitoring.ServerMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics} (and {@code HEAD}) in the Prometheus text format; anything else is 404, or
 * 405 for another method on {@code /metrics}. Each answer closes its connection. A failure to
 * render fails that scrape only (500). Thread-safe.
 */
final class MetricsHandler extends Handler.Abstract.NonBlocking {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsHandler.class);

  private final ServerMetrics metrics;

  MetricsHandler(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    if (!request.getHttpURI().getPath().equals("/metrics")) {
      return empty(response, callback, 404);
    }
    boolean head = HttpMethod.HEAD.is(request.getMethod());
    if (!head && !HttpMethod.GET.is(request.getMethod())) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      return empty(response, callback, 405);
    }
    byte[] body;
    try {
      body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      // A failure to render is this server's bug: that scrape fails, the endpoint keeps serving.
      LOG.warn("answering a metrics request failed: {}", e.toString(), e);
      return empty(response, callback, 500);
    }
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, ServerMetrics.CONTENT_TYPE);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, head ? null : ByteBuffer.wrap(body), callback);
    return true;
  }

  private static boolean empty(Response response, Callback callback, int status) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
    response.write(true, null, callback);
    return true;
  }
}
