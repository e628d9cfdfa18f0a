package dev.flipper.queue.mysql.internal;

import dev.flipper.jdbc.Dialect;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Per queue and priority, the run_after at which the last claim found its first due job, so that
 * the next claim can start its index scan there (MySQL/MariaDB only; see {@link
 * Dialect#appliesLimitBeforeLocking}).
 *
 * <p>Why: a claim changes the state of the rows it takes, which leaves their PENDING entries in the
 * queue index delete-marked until InnoDB's purge removes them, some hundreds of transactions later
 * under load. Those entries sit at the head of the queue's range, so a claim that scans from there
 * looks up and tries to lock every one of them: in JdbcQueueBenchmark's full cycle that was about a
 * third of MariaDB's CPU.
 *
 * <p>The floor is only a hint. Rows below it are scanned whenever the rows from the floor on are
 * fewer than the limit, and the whole range at least every {@link #FULL_SCAN_NANOS}; this store
 * lowers or forgets the floor when it makes jobs due below it (enqueue, retry, time-out). So a job
 * that becomes due below the floor by another process (another server's time-out keeps the job's
 * old run_after; clocks differ) waits at most that long while the queue is busy, and never longer
 * than that. Thread-safe.
 */
public final class ClaimFloors {
  /** The longest a claim goes without scanning the queue's range from its start. */
  static final long FULL_SCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  private record Floor(long runAfterMillis, long fullScanNanos) {}

  private final ConcurrentHashMap<String, Floor> floors = new ConcurrentHashMap<>();

  private static String key(String queue, int priority) {
    return priority + ":" + queue;
  }

  /**
   * One claim's locking SELECT: up to {@code limit} due jobs, earliest first, at or after {@code
   * from} and before {@code below} where those are not null.
   */
  @FunctionalInterface
  public interface DueScan<T> {
    List<T> lock(Long from, Long below, int limit) throws SQLException;
  }

  /**
   * Locks up to {@code limit} due jobs of the queue and priority, earliest first: from the floor on
   * when there is one, and below it only if the jobs from there on are too few; then moves the
   * floor to the first job found.
   */
  public <T> List<T> lockDue(
      String queue, int priority, int limit, DueScan<T> scan, ToLongFunction<T> runAfter)
      throws SQLException {
    String key = key(queue, priority);
    Floor floor = floors.get(key);
    if (floor == null || System.nanoTime() - floor.fullScanNanos() > FULL_SCAN_NANOS) {
      return scannedAll(key, scan.lock(null, null, limit), runAfter);
    }
    List<T> fromFloor = scan.lock(floor.runAfterMillis(), null, limit);
    if (fromFloor.size() == limit) { // the floor only rises here: the full-scan deadline stays
      long first = runAfter.applyAsLong(fromFloor.get(0));
      floors.computeIfPresent(
          key, (k, f) -> first > f.runAfterMillis() ? new Floor(first, f.fullScanNanos()) : f);
      return fromFloor;
    }
    List<T> due =
        new ArrayList<>(scan.lock(null, floor.runAfterMillis(), limit - fromFloor.size()));
    due.addAll(fromFloor);
    return scannedAll(key, due, runAfter);
  }

  /**
   * After a claim that scanned the whole range: the floor is its first job, or gone if it found
   * none.
   */
  private <T> List<T> scannedAll(String key, List<T> due, ToLongFunction<T> runAfter) {
    if (due.isEmpty()) {
      floors.remove(key);
    } else {
      floors.put(key, new Floor(runAfter.applyAsLong(due.get(0)), System.nanoTime()));
    }
    return due;
  }

  /**
   * Jobs of the queue became due (enqueued, retried, checkpointed): claims must not start after any
   * of them. One floor update per priority, at its earliest run_after.
   */
  public <T> void lower(
      String queue, Collection<T> jobs, ToIntFunction<T> priority, ToLongFunction<T> runAfter) {
    Map<Integer, Long> earliest = new HashMap<>();
    for (T job : jobs) {
      earliest.merge(priority.applyAsInt(job), runAfter.applyAsLong(job), Math::min);
    }
    earliest.forEach((p, t) -> lower(queue, p, t));
  }

  /**
   * A job of this queue and priority became due at {@code runAfter}: claims must not start after
   * it.
   */
  public void lower(String queue, int priority, long runAfterMillis) {
    floors.computeIfPresent(
        key(queue, priority),
        (k, f) ->
            runAfterMillis < f.runAfterMillis() ? new Floor(runAfterMillis, f.fullScanNanos()) : f);
  }

  /**
   * Jobs of unknown queues became due again at unknown times: the next claims scan from the start.
   */
  public void forgetAll() {
    floors.clear();
  }
}
