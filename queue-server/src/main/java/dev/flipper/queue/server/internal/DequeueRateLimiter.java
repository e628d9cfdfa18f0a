package dev.flipper.queue.server.internal;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-queue dequeue rate limits of one server (PinLater's {@code maxJobsPerSecond}), on Bucket4j
 * token buckets. Each server takes the configured rate divided by the number of live servers. A
 * queue without a configured limit is never limited; a rate of 0 pauses the queue.
 *
 * <p>A bucket holds at most one second of jobs (at least one job) and starts with one token. A
 * dequeue is admitted while the bucket holds a whole token; it may then return up to the bucket
 * capacity, and is charged for the jobs it actually returned. Over any window the jobs delivered
 * stay within rate × window plus one second's burst. Thread-safe.
 */
public final class DequeueRateLimiter {
  private static final Logger log = LoggerFactory.getLogger(DequeueRateLimiter.class);

  private final TimeMeter time;
  private final Map<String, QueueLimit> limits = new ConcurrentHashMap<>();
  private Map<String, Double> configured = Map.of();
  private int servers = 1;

  public DequeueRateLimiter(Clock clock) {
    this.time = new ClockTimeMeter(clock);
  }

  /** Replaces every configured limit; queues no longer listed become unlimited. */
  public synchronized void configure(Map<String, Double> maxJobsPerSecond) {
    configured = Map.copyOf(maxJobsPerSecond);
    rebuild();
  }

  /** Sets the number of live servers that share each queue's rate; must be > 0. */
  public synchronized void serverCount(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("server count must be > 0, was " + count);
    }
    servers = count;
    rebuild();
  }

  public synchronized int serverCount() {
    return servers;
  }

  /**
   * This server's share of the queue's rate in jobs per second, or null when the queue is not
   * limited.
   */
  public Double rate(String queue) {
    QueueLimit limit = limits.get(queue);
    return limit == null ? null : limit.perServerRate;
  }

  /** Admits a dequeue of up to {@code requested} jobs, or refuses it. Never blocks. */
  Admission admit(String queue, int requested) {
    QueueLimit limit = limits.get(queue);
    if (limit == null) {
      return Admission.unlimited(requested);
    }
    if (limit.bucket == null || !limit.bucket.tryConsume(1)) {
      return Admission.REFUSED;
    }
    return Admission.limited((int) Math.min(requested, limit.capacity), limit.bucket);
  }

  /** Keeps the buckets (and their state) of queues whose per-server rate did not change. */
  private void rebuild() {
    Map<String, QueueLimit> next = new HashMap<>();
    for (Map.Entry<String, Double> entry : configured.entrySet()) {
      double perServer = entry.getValue() / servers;
      QueueLimit current = limits.get(entry.getKey());
      next.put(
          entry.getKey(),
          current != null && current.perServerRate == perServer ? current : newLimit(perServer));
    }
    limits.keySet().retainAll(next.keySet());
    limits.putAll(next);
    log.info(
        "dequeue rate limits: {} queue(s) limited, {} server(s) share each rate",
        limits.size(),
        servers);
  }

  private QueueLimit newLimit(double perServerRate) {
    if (perServerRate <= 0) {
      return new QueueLimit(perServerRate, 0, null);
    }
    long capacity = Math.max(1, (long) Math.ceil(perServerRate));
    // Bucket4j refills whole tokens per period: express fractional rates per 1000 s (or per token
    // when slower).
    Bandwidth bandwidth =
        perServerRate * 1000 >= 1
            ? Bandwidth.builder()
                .capacity(capacity)
                .refillGreedy(Math.round(perServerRate * 1000), Duration.ofSeconds(1000))
                .initialTokens(1)
                .build()
            : Bandwidth.builder()
                .capacity(capacity)
                .refillGreedy(1, Duration.ofNanos((long) (1e9 / perServerRate)))
                .initialTokens(1)
                .build();
    Bucket bucket = Bucket.builder().addLimit(bandwidth).withCustomTimePrecision(time).build();
    return new QueueLimit(perServerRate, capacity, bucket);
  }

  /** One queue's limit; a null bucket means paused. */
  private record QueueLimit(double perServerRate, long capacity, Bucket bucket) {}
}
