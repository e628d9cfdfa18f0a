package dev.flipper.queue.server.internal;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import dev.flipper.queue.ErrorCode;

/**
 * The server's metrics, named as PinLater emitted them: {@code PinLaterService.<method>} (latency
 * timers), {@code PinLater.<method>.errors.<CODE>} and per-queue counters such as {@code
 * <queue>_enqueue}. Per-queue counters are only touched after a successful operation, so they exist
 * only for real queues. Thread-safe.
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

  void dequeued(String queue, int jobs) {
    add(queue + "_dequeue", jobs);
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
