package dev.feedstore.server.internal.monitoring;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of this build, as Maven wrote it into {@code dev/feedstore/server/feed-server.properties}
 * when it built the jar: what the server logs at start, prints for {@code --version} and answers in
 * GetServerInfo. Read once. Stateless and thread-safe.
 */
public final class ServerVersion {
  /** The resource that holds it, filtered by Maven. */
  private static final String RESOURCE = "/dev/feedstore/server/feed-server.properties";
  private static final String VERSION = read();

  private ServerVersion() {}

  /** The version of this build; {@code unknown} when its resources do not say. */
  public static String get() {
    return VERSION;
  }

  private static String read() {
    Properties properties = new Properties();
    try (InputStream in = ServerVersion.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version", "unknown");
  }
}
