package dev.flipper.bench.suite;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.client.QueueClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Flipper's plain client as a consumer: {@link #THREADS} threads each loop dequeue(limit), run the handler on
 * every job, ack the batch; threads × limit = the jobs in flight.
 */
final class FlipperClientConsumers implements Driver.Consumers {
  /**
   * One thread dequeuing 16 drained fastest on 2 cores (medians of 5-8 runs: on Redis as fast as 2 × 8, on
   * MariaDB 17 % faster; 4 × 4 slowest on both): concurrent dequeues contend in the store.
   */
  static final int THREADS = 1;
  /** Pause after an empty dequeue, as a polling client would; the queue is only empty at the end of a drain. */
  private static final long EMPTY_PAUSE_MILLIS = 50;

  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
  private final List<Thread> threads = new ArrayList<>();

  private FlipperClientConsumers() {}

  static FlipperClientConsumers start(QueueClient client, String queue, int inflight, Consumer<byte[]> handler) {
    if (inflight % THREADS != 0) {
      throw new IllegalArgumentException("--inflight " + inflight + " is not a multiple of the plain client's "
          + THREADS + " threads");
    }
    FlipperClientConsumers consumers = new FlipperClientConsumers();
    int limit = inflight / THREADS;
    for (int i = 0; i < THREADS; i++) {
      Thread thread = new Thread(() -> consumers.loop(client, queue, limit, handler), "flipper-client-" + i);
      consumers.threads.add(thread);
      thread.start();
    }
    return consumers;
  }

  private void loop(QueueClient client, String queue, int limit, Consumer<byte[]> handler) {
    try {
      while (!stopping.get()) {
        List<DequeuedJob> jobs = client.dequeue(queue, limit);
        if (jobs.isEmpty()) {
          Thread.sleep(EMPTY_PAUSE_MILLIS);
          continue;
        }
        List<AckParams.Item> done = new ArrayList<>(jobs.size());
        for (DequeuedJob job : jobs) {
          handler.accept(job.body());
          done.add(AckParams.Item.of(job.descriptor()));
        }
        client.ack(new AckParams(queue, done, List.of()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure.compareAndSet(null, e); // the drain then falls short; close() reports why
    }
  }

  /** Stops after each thread's current batch (acked), waits for them, and throws what stopped a thread early. */
  @Override
  public void close() throws InterruptedException {
    stopping.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    RuntimeException e = failure.get();
    if (e != null) {
      throw e;
    }
  }
}
