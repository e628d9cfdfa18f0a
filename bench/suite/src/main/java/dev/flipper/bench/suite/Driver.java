package dev.flipper.bench.suite;

import java.util.List;
import java.util.function.Consumer;

/**
 * One system under test (Flipper, db-scheduler, JobRunr) as the phases see it: enqueue one job, enqueue a batch, and
 * run a no-op worker. Implementations own their queue, table or database and remove it on {@link #close()}.
 */
public interface Driver extends AutoCloseable {
  /** Enqueues one job that may start now; called from several threads at once. */
  void enqueue(byte[] body) throws Exception;

  /** Enqueues the jobs in one call (the system's bulk operation); called from several threads at once. */
  void enqueueBatch(List<byte[]> bodies) throws Exception;

  /**
   * Starts the system's own worker with at most {@code inflight} jobs running at once; each job calls
   * {@code handler} with its body when it starts and then succeeds.
   */
  Consumers consume(int inflight, Consumer<byte[]> handler) throws Exception;

  /**
   * Like {@link #consume}, but with the system's plain client (a dequeue-and-ack loop) instead of its worker, for
   * systems that have one (Flipper); null when the system has only its worker.
   */
  default Consumers consumeWithClient(int inflight, Consumer<byte[]> handler) throws Exception {
    return null;
  }

  /** Removes every job (waiting, running or done) so that the next phase starts from an empty store. */
  void clear() throws Exception;

  /** A running worker; close() stops it and waits for it. */
  interface Consumers extends AutoCloseable {
    @Override
    void close() throws Exception;
  }
}
