package dev.flipper.queue.mysql.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Per queue and priority, the run_after at which the last claim found its first due job, so that the next
 * claim can start its index scan there (MySQL/MariaDB only; see {@link Dialect#appliesLimitBeforeLocking}).
 *
 * <p>Why: a claim changes the state of the rows it takes, which leaves their PENDING entries in the queue
 * index delete-marked until InnoDB's purge removes them, some hundreds of transactions later under load.
 * Those entries sit at the head of the queue's range, so a claim that scans from there looks up and tries
 * to lock every one of them: in JdbcQueueBenchmark's full cycle that was about a third of MariaDB's CPU.
 *
 * <p>The floor is only a hint. Rows below it are scanned whenever the rows from the floor on are fewer than
 * the limit, and the whole range at least every {@link #FULL_SCAN_NANOS}; this store lowers or forgets the
 * floor when it makes jobs due below it (enqueue, retry, time-out). So a job that becomes due below the
 * floor by another process (another server's time-out keeps the job's old run_after; clocks differ) waits
 * at most that long while the queue is busy, and never longer than that. Thread-safe.
 */
public final class ClaimFloors {
  /** The longest a claim goes without scanning the queue's range from its start. */
  static final long FULL_SCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  private record Floor(long runAfterMillis, long fullScanNanos) {}

  private final ConcurrentHashMap<String, Floor> floors = new ConcurrentHashMap<>();

  private static String key(String queue, int priority) {
    return priority + ":" + queue;
  }

  /** Where the next claim may start, or null if it must scan from the start of the range. */
  public Long floor(String queue, int priority, long nowNanos) {
    Floor floor = floors.get(key(queue, priority));
    return floor == null || nowNanos - floor.fullScanNanos() > FULL_SCAN_NANOS ? null : floor.runAfterMillis();
  }

  /**
   * After a claim that scanned the whole range (from the start, or below and above the floor): its first
   * row's run_after, or null if it found nothing.
   */
  public void scannedAll(String queue, int priority, Long firstRunAfter, long nowNanos) {
    if (firstRunAfter == null) {
      floors.remove(key(queue, priority));
    } else {
      floors.put(key(queue, priority), new Floor(firstRunAfter, nowNanos));
    }
  }

  /** After a claim that filled its limit from the floor on: moves the floor up to its first row. */
  public void scannedFromFloor(String queue, int priority, long firstRunAfter) {
    floors.computeIfPresent(key(queue, priority),
        (k, f) -> firstRunAfter > f.runAfterMillis() ? new Floor(firstRunAfter, f.fullScanNanos()) : f);
  }

  /** A job of this queue and priority became due at {@code runAfter}: claims must not start after it. */
  public void lower(String queue, int priority, long runAfterMillis) {
    floors.computeIfPresent(key(queue, priority),
        (k, f) -> runAfterMillis < f.runAfterMillis() ? new Floor(runAfterMillis, f.fullScanNanos()) : f);
  }

  /** Jobs of unknown queues became due again at unknown times: the next claims scan from the start. */
  public void forgetAll() {
    floors.clear();
  }
}
