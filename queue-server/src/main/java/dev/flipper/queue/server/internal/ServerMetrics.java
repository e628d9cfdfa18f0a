package dev.flipper.queue.server.internal;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server's metrics, named as PinLater emitted them: {@code PinLaterService.<method>} (latency
 * timers), {@code PinLater.<method>.errors.<CODE>} and per-queue counters such as {@code
 * <queue>_enqueue}, plus per queue the dequeue delay (timer {@code <queue>_dequeue_delay}: claim
 * time minus the later of enqueue time and run-after) and the enqueued body sizes (histogram {@code
 * <queue>_enqueue_body_bytes}). Per-queue metrics are only touched after a successful operation, so
 * they exist only for real queues. Thread-safe.
 */
public final class ServerMetrics {
  private final MetricRegistry registry;

  public ServerMetrics(MetricRegistry registry) {
    this.registry = registry;
  }

  Timer.Context time(String method) {
    return registry.timer("PinLaterService." + method).time();
  }

  void error(String method, ErrorCode code) {
    registry.counter("PinLater." + method + ".errors." + code.name()).inc();
  }

  void enqueued(String queue, int jobs) {
    add(queue + "_enqueue", jobs);
  }

  void bodiesEnqueued(String queue, List<byte[]> bodies) {
    if (!bodies.isEmpty()) {
      Histogram sizes = registry.histogram(queue + "_enqueue_body_bytes");
      bodies.forEach(body -> sizes.update(body.length));
    }
  }

  /** Counts the jobs handed out; a claim (not a dry run) also records how long each waited. */
  void dequeued(String queue, List<DequeuedJob> jobs, boolean claimed) {
    add(queue + "_dequeue", jobs.size());
    if (claimed && !jobs.isEmpty()) {
      Timer delay = registry.timer(queue + "_dequeue_delay");
      jobs.forEach(job -> delay.update(job.waitedMillis(), TimeUnit.MILLISECONDS));
    }
  }

  void acked(String queue, int succeeded, int failed) {
    add(queue + "_ack_succeeded", succeeded);
    add(queue + "_ack_failed", failed);
  }

  void checkpointed(String queue, int requests) {
    add(queue + "_checkpoint", requests);
  }

  void rateLimited(String queue) {
    registry.counter(queue + "_dequeue_requests_rate_limited").inc();
  }

  private void add(String name, int count) {
    if (count > 0) {
      registry.counter(name).inc(count);
    }
  }
}
