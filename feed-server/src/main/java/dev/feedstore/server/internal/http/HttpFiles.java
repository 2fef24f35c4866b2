package dev.feedstore.server.internal.http;

import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The files of one directory under {@code /ui/} (the web page of {@code examples/web}): {@code
 * /ui/} is its {@code index.html}, {@code /ui/NAME} the file {@code NAME}. Only plain names of files
 * directly in the directory are served ({@code [A-Za-z0-9_-]} and dots, not starting with a dot),
 * so no path leaves it. Files are read when asked, so an edit shows on the next load. Thread-safe.
 */
final class HttpFiles {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");
  private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
      "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "svg", "image/svg+xml",
      "png", "image/png", "ico", "image/x-icon", "json", "application/json");

  private final Path dir;

  HttpFiles(Path dir) {
    this.dir = dir;
  }

  /** Answers {@code GET /ui/...}; {@code rest} is the path after {@code /ui}. */
  boolean handle(Request request, Response response, Callback callback, List<String> rest) {
    if (rest.isEmpty()) { // "/ui": the page's relative links need the slash
      response.setStatus(301);
      response.getHeaders().put(HttpHeader.LOCATION, "/ui/");
      response.write(true, null, callback);
      return true;
    }
    String name = rest.size() == 1 && rest.get(0).isEmpty() ? "index.html" : String.join("/", rest);
    if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      HttpExchange.write(response, callback, 405, Json.object().field("code", ErrorCode.INVALID_ARGUMENT.name())
          .field("message", "the page's files are read with GET").end());
      return true;
    }
    Path file = NAME.matcher(name).matches() ? dir.resolve(name) : null;
    byte[] body;
    try {
      body = file != null && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
    } catch (IOException e) {
      body = null;
    }
    if (body == null) {
      HttpExchange.write(response, callback, 404, Json.object().field("code", ErrorCode.NOT_FOUND.name())
          .field("message", "no such file of the page: " + RateLimitedLog.clip(name)).end());
      return true;
    }
    String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, TYPES.getOrDefault(extension, "application/octet-stream"));
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, request.getMethod().equals("HEAD") ? null : ByteBuffer.wrap(body), callback);
    return true;
  }
}
