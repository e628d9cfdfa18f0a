package dev.flipper.workflow.worker.internal;

import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.LeaseLostException;
import dev.flipper.workflow.engine.Renewal;
import dev.flipper.workflow.engine.WorkflowEngine;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the lease of one claimed job while it runs and finishes: renews it every lease/3, and sends
 * the job's new properties to the master at most once per {@link #FLUSH_DELAY} (debounced, not per
 * line; a renewal carries them too). A renewal the master refuses ({@link LeaseLostException})
 * means another worker may run the job now: {@code onLost} is told once, and the worker kills the
 * process. A master that does not answer is tried again every second until the lease would have
 * ended; then the lease counts as lost too, since the master will hand the job to someone else. A
 * renewal that finds an ABORT signal over the job's instance tells {@code onAbort}: the process is
 * killed and the job finished as failed. Thread-safe.
 */
public final class LeaseKeeper implements AutoCloseable {
  /** How long new properties wait for more before they are sent. */
  static final Duration FLUSH_DELAY = Duration.ofSeconds(1);

  private static final long RETRY_MILLIS = 1000;
  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

  private final WorkflowEngine engine;
  private final ClaimedJob job;
  private final ScheduledExecutorService timer;
  private final Clock clock;
  private final Consumer<String> onLost;
  private final Consumer<String> onAbort;
  private final ScheduledFuture<?> periodic;
  private Map<String, List<String>> properties = Map.of();
  private boolean propertiesDirty;
  private boolean flushScheduled;
  private boolean lost;
  private boolean closed;
  private boolean failing;
  private boolean retryScheduled;

  public LeaseKeeper(
      WorkflowEngine engine,
      ClaimedJob job,
      ScheduledExecutorService timer,
      Clock clock,
      Consumer<String> onLost,
      Consumer<String> onAbort) {
    this.engine = engine;
    this.job = job;
    this.timer = timer;
    this.clock = clock;
    this.onLost = onLost;
    this.onAbort = onAbort;
    long every = Math.max(100, job.lease().toMillis() / 3);
    this.periodic = timer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
  }

  /** The execution printed a new property value: sent within {@link #FLUSH_DELAY}. */
  public synchronized void properties(Map<String, List<String>> snapshot) {
    properties = snapshot;
    propertiesDirty = true;
    if (!flushScheduled && !closed) {
      flushScheduled = true;
      timer.schedule(this::flush, FLUSH_DELAY.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  public synchronized boolean lost() {
    return lost;
  }

  private void flush() {
    synchronized (this) {
      flushScheduled = false;
      if (!propertiesDirty) {
        return;
      }
    }
    renew();
  }

  /** One renewal (with the properties if they changed). Runs on the timer thread. */
  private void renew() {
    Map<String, List<String>> toSend;
    synchronized (this) {
      if (closed || lost) {
        return;
      }
      toSend = propertiesDirty ? properties : Map.of();
      propertiesDirty = false;
    }
    try {
      Renewal renewal = engine.renew(job, toSend);
      if (renewal.abortRequested()) {
        // Unlike a lost lease, the job is still ours: the process is killed and the failure
        // recorded.
        onAbort.accept("instance aborted");
      }
      synchronized (this) {
        if (failing) {
          LOG.info(
              "job {}: the master answers again; lease renewed until {}",
              job.tokenName(),
              job.leaseEnd());
          failing = false;
        }
      }
    } catch (LeaseLostException e) {
      markLost("lease lost: " + e.getMessage());
    } catch (RuntimeException e) {
      synchronized (this) {
        if (closed) {
          return; // finished or released meanwhile: the engine refuses a renewal of a done job
        }
        propertiesDirty |= !toSend.isEmpty();
        if (!failing) {
          LOG.warn(
              "job {}: cannot renew its lease (lease ends {}), retrying every {} ms: {}",
              job.tokenName(),
              job.leaseEnd(),
              RETRY_MILLIS,
              e.toString());
          failing = true;
        }
      }
      if (clock.millis() + RETRY_MILLIS >= job.leaseEnd().toEpochMilli()) {
        markLost(
            "lease lost: the master did not answer before the lease ended at " + job.leaseEnd());
      } else {
        synchronized (this) {
          // One retry chain at a time, however many periodic ticks fail during the outage.
          if (!closed && !retryScheduled) {
            retryScheduled = true;
            timer.schedule(this::retry, RETRY_MILLIS, TimeUnit.MILLISECONDS);
          }
        }
      }
    }
  }

  private void retry() {
    synchronized (this) {
      retryScheduled = false;
    }
    renew();
  }

  private void markLost(String why) {
    synchronized (this) {
      if (lost || closed) {
        return;
      }
      lost = true;
    }
    LOG.warn("job {} on {}: {}; stopping its process", job.tokenName(), job.worker(), why);
    onLost.accept(why);
  }

  /** Stops renewing (after finish or release). */
  @Override
  public synchronized void close() {
    closed = true;
    periodic.cancel(false);
  }
}
