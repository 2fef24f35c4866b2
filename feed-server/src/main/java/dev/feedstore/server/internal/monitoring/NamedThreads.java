package dev.feedstore.server.internal.monitoring;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named {@code prefix-N}, so thread dumps show what each pool is. Thread-safe. */
public final class NamedThreads implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger next = new AtomicInteger(1);

  public NamedThreads(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + "-" + next.getAndIncrement());
    thread.setDaemon(true);
    return thread;
  }
}
