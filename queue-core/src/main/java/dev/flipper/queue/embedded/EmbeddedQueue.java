package dev.flipper.queue.embedded;

import dev.flipper.queue.QueueService;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.worker.JobHandler;
import dev.flipper.queue.worker.QueueWorker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Everything an application that embeds the queue runs, from one builder: the {@link QueueService}
 * over the application's store, an in-process {@link QueueWorker} per handled queue, and the {@link
 * QueueMonitor} (claim time-outs, deletion of old finished jobs), which a queue server would
 * otherwise run.
 *
 * <pre>{@code
 * EmbeddedQueue jobs = EmbeddedQueue.builder(store)
 *     .worker("mail", job -> send(job.bodyAsString()), w -> w.concurrency(4))
 *     .build()
 *     .start();
 * jobs.queue().enqueue("mail", List.of(NewJob.of("welcome ada@example.com")));
 * ...
 * jobs.close(); // workers finish their jobs, the monitor stops, the store closes
 * }</pre>
 *
 * <p>{@link #start()} creates every handled queue that does not exist yet. Several application
 * instances over the same store may each run one: workers never run a job twice at once, and
 * monitors never move a job twice. Thread-safe.
 */
public final class EmbeddedQueue implements AutoCloseable {
  private final QueueStore store;
  private final QueueService queue;
  private final QueueMonitor monitor;
  private final Map<String, QueueWorker> workers;
  private volatile boolean started;

  private EmbeddedQueue(
      QueueStore store,
      QueueService queue,
      QueueMonitor monitor,
      Map<String, QueueWorker> workers) {
    this.store = store;
    this.queue = queue;
    this.monitor = monitor;
    this.workers = workers;
  }

  public static Builder builder(QueueStore store) {
    return new Builder(store);
  }

  /** Creates the handled queues, starts the monitor and the workers. Once; returns this. */
  public synchronized EmbeddedQueue start() {
    if (started) {
      throw new IllegalStateException("the embedded queue is already started");
    }
    started = true;
    for (String name : workers.keySet()) {
      queue.createQueue(name);
    }
    if (monitor != null) {
      monitor.start();
    }
    workers.values().forEach(QueueWorker::start);
    return this;
  }

  /** The queue API: enqueue, lookup, count, scan, pause, ... */
  public QueueService queue() {
    return queue;
  }

  /**
   * The worker of a handled queue (its {@code stats()}, say); IllegalArgumentException for another
   * queue.
   */
  public QueueWorker worker(String queueName) {
    QueueWorker worker = workers.get(queueName);
    if (worker == null) {
      throw new IllegalArgumentException(
          "no worker handles queue '" + queueName + "'; workers: " + workers.keySet());
    }
    return worker;
  }

  /**
   * Stops the workers (running jobs finish and are acked), then the monitor, then closes the store.
   */
  @Override
  public void close() {
    List<RuntimeException> failures = new ArrayList<>();
    for (QueueWorker worker : workers.values()) {
      closeQuietly(worker::close, failures);
    }
    if (monitor != null) {
      closeQuietly(monitor::close, failures);
    }
    closeQuietly(store::close, failures);
    if (!failures.isEmpty()) {
      RuntimeException first = failures.get(0);
      failures.subList(1, failures.size()).forEach(first::addSuppressed);
      throw first;
    }
  }

  private static void closeQuietly(Runnable close, List<RuntimeException> failures) {
    try {
      close.run();
    } catch (RuntimeException e) {
      failures.add(e);
    }
  }

  /** Settings of an {@link EmbeddedQueue}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private record WorkerSpec(JobHandler handler, UnaryOperator<QueueWorker.Builder> settings) {}

    private final QueueStore store;
    private UnaryOperator<QueueService.Builder> serviceSettings = UnaryOperator.identity();
    private UnaryOperator<QueueMonitor.Builder> monitorSettings = UnaryOperator.identity();
    private boolean monitorEnabled = true;
    private final Map<String, WorkerSpec> workers = new LinkedHashMap<>();

    private Builder(QueueStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** Queue service settings, e.g. {@code s -> s.priorityLevels(5)}. */
    public Builder service(UnaryOperator<QueueService.Builder> settings) {
      this.serviceSettings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Runs the queue's jobs in this process with the handler's default worker settings. */
    public Builder worker(String queueName, JobHandler handler) {
      return worker(queueName, handler, UnaryOperator.identity());
    }

    /**
     * Runs the queue's jobs in this process; {@code settings} tunes the worker, e.g. {@code w ->
     * w.concurrency(8)}.
     */
    public Builder worker(
        String queueName, JobHandler handler, UnaryOperator<QueueWorker.Builder> settings) {
      Objects.requireNonNull(queueName, "queueName");
      if (workers.put(
              queueName,
              new WorkerSpec(
                  Objects.requireNonNull(handler, "handler"),
                  Objects.requireNonNull(settings, "settings")))
          != null) {
        throw new IllegalArgumentException(
            "queue '" + queueName + "' has two workers; give one handler per queue");
      }
      return this;
    }

    /**
     * Monitor settings (claim time-out, TTLs of finished jobs, interval), e.g. {@code m ->
     * m.claimTimeout(...)}.
     */
    public Builder monitor(UnaryOperator<QueueMonitor.Builder> settings) {
      this.monitorSettings = Objects.requireNonNull(settings, "settings");
      this.monitorEnabled = true;
      return this;
    }

    /** No monitor here, because another process (a queue server, another instance) runs one. */
    public Builder withoutMonitor() {
      this.monitorEnabled = false;
      return this;
    }

    public EmbeddedQueue build() {
      QueueService service = serviceSettings.apply(QueueService.builder(store)).build();
      QueueMonitor monitor =
          monitorEnabled ? monitorSettings.apply(QueueMonitor.builder(store)).build() : null;
      Map<String, QueueWorker> built = new LinkedHashMap<>();
      workers.forEach(
          (name, spec) ->
              built.put(
                  name,
                  spec.settings()
                      .apply(QueueWorker.builder(service, name, spec.handler()))
                      .build()));
      return new EmbeddedQueue(store, service, monitor, built);
    }
  }
}
