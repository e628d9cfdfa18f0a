package dev.flipper.bench.suite;

import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.ThriftJobQueue;
import dev.flipper.queue.worker.QueueWorker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Flipper through a running queue server ({@code --server host:port}) with its public Java client: producers
 * share one {@link QueueClient}, the worker ({@link QueueWorker} over {@link ThriftJobQueue}) and the plain
 * dequeue-and-ack loop each have their own, as a producer and a worker process would. Works in a queue
 * {@code bench_<random>} of its own; {@link #clear()} deletes it and moves to a new one.
 */
public final class FlipperDriver implements Driver {
  /** The admin password whose SHA-256 the templates in resources/flipper/ set as queue.adminPasswordHash. */
  static final String DEFAULT_ADMIN_PASSWORD = "flipper-bench";
  /** Deleting a queue of a million jobs takes a while; a call waiting that long is still not stuck. */
  private static final Duration DELETE_TIMEOUT = Duration.ofMinutes(10);
  private static final String SOURCE = "bench-worker";

  private final String host;
  private final int port;
  private final String adminPassword;
  private final QueueClient producers;
  private final QueueClient plainConsumer;
  private final ThriftJobQueue workerQueue;
  /** --coalesce-enqueues: the clients' setting, -1 for the client's default; 0 sends every single job alone. */
  private final int coalesceEnqueues;
  private volatile String queue;

  public FlipperDriver(Options options) {
    String[] hostAndPort = options.require("server").split(":", 2);
    if (hostAndPort.length != 2) {
      throw new IllegalArgumentException("--server must be host:port, was '" + options.require("server") + "'");
    }
    host = hostAndPort[0];
    port = Integer.parseInt(hostAndPort[1]);
    adminPassword = options.get("admin-password", DEFAULT_ADMIN_PASSWORD);
    // One connection per producer thread, so producers never wait for a pooled connection.
    coalesceEnqueues = options.getInt("coalesce-enqueues", -1);
    producers = client("bench-producer", Math.max(8, options.getInt("producers", 8)), null);
    plainConsumer = client(SOURCE, FlipperClientConsumers.THREADS, null);
    workerQueue = ThriftJobQueue.over(client(SOURCE, 8, null));
    queue = newQueue();
  }

  @Override
  public void enqueue(byte[] body) {
    producers.enqueue(queue, job(body));
  }

  @Override
  public void enqueueBatch(List<byte[]> bodies) {
    List<NewJob> jobs = new ArrayList<>(bodies.size());
    for (byte[] body : bodies) {
      jobs.add(job(body));
    }
    producers.enqueue(queue, jobs);
  }

  @Override
  public Consumers consume(int inflight, Consumer<byte[]> handler) {
    // batchSize = concurrency: one dequeue may fill every free slot (the default, 10, is PinLater's example
    // worker's); prefetch and dequeues in flight stay the worker's defaults.
    QueueWorker worker = QueueWorker.builder(workerQueue, queue, job -> handler.accept(job.body()))
        .source(SOURCE).concurrency(inflight).batchSize(inflight).build().start();
    return worker::close;
  }

  @Override
  public Consumers consumeWithClient(int inflight, Consumer<byte[]> handler) {
    return FlipperClientConsumers.start(plainConsumer, queue, inflight, handler);
  }

  /** Deleting the queue is one call on every store; a fresh name leaves no doubt about what is left of it. */
  @Override
  public void clear() {
    deleteQueue(queue);
    queue = newQueue();
  }

  @Override
  public void close() {
    try {
      deleteQueue(queue);
    } finally {
      workerQueue.close();
      plainConsumer.close();
      producers.close();
    }
  }

  private static NewJob job(byte[] body) {
    return NewJob.of(body).withPriority(1);
  }

  private String newQueue() {
    String name = "bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    producers.createQueue(name);
    return name;
  }

  private void deleteQueue(String name) {
    try (QueueClient admin = client("bench-admin", 1, DELETE_TIMEOUT)) {
      admin.deleteQueue(name, adminPassword);
    }
  }

  private QueueClient client(String source, int connections, Duration requestTimeout) {
    QueueClient.Builder builder = QueueClient.builder().server(host, port).source(source)
        .maxConnectionsPerServer(connections);
    if (requestTimeout != null) {
      builder.requestTimeout(requestTimeout);
    }
    if (coalesceEnqueues >= 0) {
      builder.coalesceEnqueues(coalesceEnqueues);
    }
    return builder.build();
  }
}
