package dev.flipper.lifecycle;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Daemon threads named {@code <prefix>-1}, {@code <prefix>-2}, ..., so thread dumps and log lines
 * say which pool a thread belongs to; daemon threads never keep the JVM alive after the launcher's
 * graceful stop has given up on them. Thread-safe.
 */
public final class NamedThreadFactory implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();

  public NamedThreadFactory(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable runnable) {
    Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  }
}
