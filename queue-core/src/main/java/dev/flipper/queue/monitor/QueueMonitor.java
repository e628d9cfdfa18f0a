package dev.flipper.queue.monitor;

import dev.flipper.lifecycle.NamedThreadFactory;
import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.MonitorCounts;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.text.DurationText;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue monitor: on every shard, sends IN_PROGRESS jobs whose claim timed out back to PENDING
 * (or to FAILED when no attempt is left), and deletes SUCCEEDED and FAILED jobs after their TTLs.
 * Every server runs one; several at once are safe because the store makes each transition exactly
 * once. Thread-safe.
 *
 * <pre>{@code
 * QueueMonitor monitor = QueueMonitor.builder(store).claimTimeout(Duration.ofMinutes(10)).build();
 * monitor.start();   // runs every interval on one daemon thread
 * monitor.close();
 * }</pre>
 */
public final class QueueMonitor implements AutoCloseable {
  /*
   * The builder's defaults. The shared config's queue.claimTimeout, queue.succeededTtl, queue.failedTtl,
   * queue.monitorBatchSize and queue.monitorInterval take theirs from these (dist's ConfigSchema).
   */
  public static final Duration DEFAULT_CLAIM_TIMEOUT = Duration.ofMinutes(10);
  public static final Duration DEFAULT_SUCCEEDED_TTL = Duration.ofHours(24);
  public static final Duration DEFAULT_FAILED_TTL = Duration.ofDays(7);
  public static final int DEFAULT_BATCH_SIZE = 5000;
  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

  private static final Logger log = LoggerFactory.getLogger(QueueMonitor.class);

  private final QueueStore store;
  private final AtomicReference<MonitorReport> sinceCreated =
      new AtomicReference<>(MonitorReport.EMPTY);
  private final Duration claimTimeout;
  private final Duration succeededTtl;
  private final Duration failedTtl;
  private final int batchSize;
  private final Duration interval;
  private final Clock clock;
  private final Object lifecycle = new Object();
  private ScheduledExecutorService executor;

  private QueueMonitor(Builder builder) {
    this.store = builder.store;
    this.claimTimeout = builder.claimTimeout;
    this.succeededTtl = builder.succeededTtl;
    this.failedTtl = builder.failedTtl;
    this.batchSize = builder.batchSize;
    this.interval = builder.interval;
    this.clock = builder.clock;
  }

  public static Builder builder(QueueStore store) {
    return new Builder(store);
  }

  /**
   * What every run of this monitor did together, for metrics (counters since the process started).
   */
  public MonitorReport totalSinceCreated() {
    return sinceCreated.get();
  }

  /**
   * One pass over every healthy shard: claim time-outs, then GC of SUCCEEDED and FAILED jobs, each
   * step at most {@code batchSize} jobs per shard. A shard that fails is logged and skipped.
   */
  public MonitorReport runOnce() {
    long now = clock.millis();
    Map<String, MonitorReport.QueueCounts> counts = new TreeMap<>();
    for (ShardStore shard : store.shards()) {
      if (!shard.healthy()) {
        log.debug("queue monitor: skipping unhealthy shard {}", shard.name());
        continue;
      }
      try {
        MonitorCounts timedOut = shard.timeOutClaims(now - claimTimeout.toMillis(), batchSize, now);
        timedOut
            .retried()
            .forEach((queue, n) -> add(counts, queue, new MonitorReport.QueueCounts(n, 0, 0, 0)));
        timedOut
            .failed()
            .forEach((queue, n) -> add(counts, queue, new MonitorReport.QueueCounts(0, n, 0, 0)));
        shard
            .deleteFinished(JobState.SUCCEEDED, now - succeededTtl.toMillis(), batchSize)
            .forEach((queue, n) -> add(counts, queue, new MonitorReport.QueueCounts(0, 0, n, 0)));
        shard
            .deleteFinished(JobState.FAILED, now - failedTtl.toMillis(), batchSize)
            .forEach((queue, n) -> add(counts, queue, new MonitorReport.QueueCounts(0, 0, 0, n)));
      } catch (RuntimeException e) {
        log.warn(
            "queue monitor: shard {} failed, will retry next run: {}", shard.name(), e.toString());
      }
    }
    MonitorReport report = new MonitorReport(counts);
    sinceCreated.accumulateAndGet(report, MonitorReport::plus);
    if (!counts.isEmpty()) {
      log.info("queue monitor: {}", report);
    }
    return report;
  }

  private static void add(
      Map<String, MonitorReport.QueueCounts> counts, String queue, MonitorReport.QueueCounts more) {
    counts.merge(queue, more, MonitorReport.QueueCounts::plus);
  }

  /**
   * Runs {@link #runOnce()} every interval on one daemon thread; the first run comes after a random
   * fraction of the interval so that servers started together do not run in step.
   */
  public void start() {
    synchronized (lifecycle) {
      if (executor != null) {
        throw new IllegalStateException("the queue monitor is already started");
      }
      executor =
          Executors.newSingleThreadScheduledExecutor(
              new NamedThreadFactory("flipper-queue-monitor"));
      long intervalMillis = interval.toMillis();
      long firstDelay = (long) (ThreadLocalRandom.current().nextDouble() * intervalMillis);
      executor.scheduleWithFixedDelay(
          this::runSafely, firstDelay, intervalMillis, TimeUnit.MILLISECONDS);
      log.info(
          "queue monitor started: claimTimeout={}, succeededTtl={}, failedTtl={}, batchSize={}, interval={}",
          claimTimeout,
          succeededTtl,
          failedTtl,
          batchSize,
          interval);
    }
  }

  private void runSafely() {
    try {
      runOnce();
    } catch (RuntimeException e) {
      // An exception would cancel the schedule; log it and try again next interval.
      log.warn("queue monitor run failed: {}", e.toString());
    }
  }

  /** Stops the periodic runs, waiting briefly for a run in progress. Idempotent. */
  @Override
  public void close() {
    synchronized (lifecycle) {
      if (executor == null) {
        return;
      }
      // shutdown, not shutdownNow: interrupting a run during its file I/O would close an embedded
      // H2 database.
      executor.shutdown();
      try {
        executor.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      executor = null;
    }
  }

  /** Builds a {@link QueueMonitor}; {@link #build()} validates every setting. Not thread-safe. */
  public static final class Builder {
    private final QueueStore store;
    private Duration claimTimeout = DEFAULT_CLAIM_TIMEOUT;
    private Duration succeededTtl = DEFAULT_SUCCEEDED_TTL;
    private Duration failedTtl = DEFAULT_FAILED_TTL;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private Duration interval = DEFAULT_INTERVAL;
    private Clock clock = Clock.systemUTC();

    private Builder(QueueStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * An IN_PROGRESS job not acked or checkpointed for this long is retried or failed. Default 10
     * min.
     */
    public Builder claimTimeout(Duration timeout) {
      this.claimTimeout = timeout;
      return this;
    }

    /** SUCCEEDED jobs are deleted this long after they succeeded. Default 24 h. */
    public Builder succeededTtl(Duration ttl) {
      this.succeededTtl = ttl;
      return this;
    }

    /** FAILED jobs are deleted this long after they failed. Default 7 days. */
    public Builder failedTtl(Duration ttl) {
      this.failedTtl = ttl;
      return this;
    }

    /**
     * The most jobs one step (time-out, succeeded GC, failed GC) touches per shard per run. Default
     * 5000.
     */
    public Builder batchSize(int size) {
      this.batchSize = size;
      return this;
    }

    /** Time between the end of one run and the start of the next. Default 1 min. */
    public Builder interval(Duration newInterval) {
      this.interval = newInterval;
      return this;
    }

    public Builder clock(Clock newClock) {
      this.clock = newClock;
      return this;
    }

    public QueueMonitor build() {
      requirePositive(claimTimeout, "claimTimeout");
      requirePositive(succeededTtl, "succeededTtl");
      requirePositive(failedTtl, "failedTtl");
      requirePositive(interval, "interval");
      if (batchSize < 1) {
        throw new IllegalArgumentException("batchSize must be >= 1, was " + batchSize);
      }
      Objects.requireNonNull(clock, "clock");
      return new QueueMonitor(this);
    }

    private static void requirePositive(Duration value, String name) {
      if (value == null || value.isZero() || value.isNegative()) {
        throw new IllegalArgumentException(
            name
                + " must be a positive duration, was "
                + (value == null ? "null" : DurationText.format(value)));
      }
    }
  }
}
