package dev.flipper.queue.redis.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Pings every shard on one background daemon thread at a fixed delay. Thread-safe. */
public final class HealthChecker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HealthChecker.class);

  private final ScheduledExecutorService executor;

  public HealthChecker(Duration interval, Supplier<Collection<ShardConnection>> connections) {
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "flipper-redis-health");
              thread.setDaemon(true);
              return thread;
            });
    long millis = interval.toMillis();
    executor.scheduleWithFixedDelay(
        () -> {
          for (ShardConnection connection : connections.get()) {
            try {
              connection.ping();
            } catch (RuntimeException e) {
              log.warn(
                  "health ping of Redis shard '{}' failed unexpectedly",
                  connection.config().name(),
                  e);
            }
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
