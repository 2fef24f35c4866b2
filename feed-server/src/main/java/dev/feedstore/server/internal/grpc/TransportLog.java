package dev.feedstore.server.internal.grpc;

import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;

import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.time.Clock;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * gRPC's transport logs a message it refuses (larger than {@code max-message-bytes}) through
 * java.util.logging, at WARNING with a stack trace, before the service sees the call: a client
 * could flood the log with it. This handler takes those records over and logs them as one-line
 * rejections, at a bounded rate.
 *
 * <p>Thread-safe. Installing changes JVM-wide logging, so only the runnable server ({@code Main})
 * does it; programs that embed the server keep their own logging.
 */
public final class TransportLog extends Handler {
  /** The logger of grpc-netty-shaded's server streams, which reports refused messages. */
  static final String SERVER_STREAM_LOGGER = "io.grpc.netty.shaded.io.grpc.netty.NettyServerStream";

  /**
   * The configured logger, held: java.util.logging keeps loggers only weakly, so one that nothing
   * else references yet may be collected, and the transport would then get a new one, without this
   * handler.
   */
  private static volatile Logger installed;

  private final RateLimitedLog log;

  TransportLog(RateLimitedLog log) {
    this.log = log;
  }

  /** Routes the transport's reports of refused messages to a rate-limited SLF4J log. */
  public static void install(Clock clock, int perMinute) {
    Logger logger = Logger.getLogger(SERVER_STREAM_LOGGER);
    logger.setUseParentHandlers(false);
    logger.addHandler(new TransportLog(new RateLimitedLog(LoggerFactory.getLogger("dev.feedstore.server"),
        Level.WARN, "refused messages", clock, perMinute)));
    installed = logger;
  }

  @Override
  public void publish(LogRecord record) {
    if (record.getLevel().intValue() < java.util.logging.Level.WARNING.intValue()) {
      return;
    }
    Throwable cause = record.getThrown();
    String what = cause != null && cause.getMessage() != null ? cause.getMessage() : String.valueOf(record.getMessage());
    log.log("refused a message from a client: " + what + " (the limit is --" + MAX_MESSAGE_BYTES.name()
        + " when it is the size)", null);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}
}
