package dev.feedstore.client.internal;

import java.util.Objects;
import org.slf4j.Logger;

/**
 * Logs a failure that repeats once, not once per retry: the first occurrence (with its stack trace
 * when asked), again only when the failure changes, and one line when it is over. Not thread-safe:
 * one thread reports.
 */
final class FailureLog {
  private final Logger log;
  private final String subject;
  /** What the failure being reported says; null while all is well. */
  private String current;

  /** @param subject what recovers, for the line that says so ("sync", "durable consumer x") */
  FailureLog(Logger log, String subject) {
    this.log = log;
    this.subject = subject;
  }

  /**
   * {@code failure} happened (again). Logged at WARN unless it is the one reported last.
   *
   * @param what what failed, for the log line
   * @param withStack whether the line carries the stack trace (for failures nobody expected)
   */
  void failed(String what, RuntimeException failure, boolean withStack) {
    String message = what + ": " + failure;
    if (Objects.equals(message, current)) {
      log.debug("{} (again)", message);
      return;
    }
    current = message;
    if (withStack) {
      log.warn("{}; retrying (logged once until it changes)", what, failure);
    } else {
      log.warn("{}; retrying (logged once until it changes)", message);
    }
  }

  /** The last failure is over (a sync cycle went through, a stream delivered again). */
  void recovered() {
    if (current != null) {
      log.info("{} recovered after: {}", subject, current);
      current = null;
    }
  }
}
