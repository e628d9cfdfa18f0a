package dev.flipper.workflow.worker.internal;

import dev.flipper.workflow.engine.ClaimedJob;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of a worker's {@code workers.count} job slots: a loop on its own thread that claims a
 * runnable job, runs it, and claims the next at once. Between hops there is no sleep: after a job,
 * the slot claims again at once. An idle slot waits inside the master: its claim is a waiting one
 * (up to {@link #CLAIM_WAIT}), which returns as soon as a job becomes runnable, for example when a
 * sibling's success makes children runnable. Only against a master that answers at once (Pinball's,
 * or one shutting down) does a slot that found nothing back off in {@link #waitForWork()}.
 * Thread-safe.
 */
public final class Slot implements Runnable {
  /**
   * How long one claim waits in the master for a runnable job. Bounded, so that a stopping worker's
   * idle slots end within it (the wait is not interrupted: an interrupt would close an in-process
   * H2 store's file).
   */
  static final Duration CLAIM_WAIT = Duration.ofSeconds(5);

  /**
   * After an empty claim that did not wait (a master that does not wait), a slot re-checks after
   * this, doubling to {@link #MAX_IDLE}, unless a sibling wakes it first.
   */
  static final Duration MIN_IDLE = Duration.ofMillis(50);

  static final Duration MAX_IDLE = Duration.ofMillis(200);

  /**
   * After a job was handed back because the log folder had no room: long enough not to take it
   * again and again while another worker with room could.
   */
  static final Duration NO_ROOM_WAIT = Duration.ofSeconds(10);

  /** After a failed claim (master unreachable). */
  static final Duration MASTER_DOWN_WAIT = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(Slot.class);

  private final String name;
  private final JobRun.Context ctx;
  private final Duration lease;
  private final IdleWait idle;
  private final BooleanSupplier stopping;
  private final Listener listener;
  private Duration idleWait = MIN_IDLE;
  private volatile JobRun current;

  /** Hears of each job a slot starts and ends (the daemon's metrics and shutdown). */
  public interface Listener {
    void started(JobRun run);

    void ended(JobRun run, JobRun.Outcome outcome);
  }

  public Slot(
      String name,
      JobRun.Context ctx,
      Duration lease,
      IdleWait idle,
      BooleanSupplier stopping,
      Listener listener) {
    this.name = name;
    this.ctx = ctx;
    this.lease = lease;
    this.idle = idle;
    this.stopping = stopping;
    this.listener = listener;
  }

  public String name() {
    return name;
  }

  /** The job this slot runs now, or null. */
  public JobRun current() {
    return current;
  }

  @Override
  public void run() {
    boolean masterDown = false;
    while (!stopping.getAsBoolean()) {
      Optional<ClaimedJob> claimed;
      long began = System.nanoTime();
      try {
        claimed = ctx.engine().claim(name, lease, CLAIM_WAIT);
        if (masterDown) {
          LOG.info("slot {}: the master answers again", name);
          masterDown = false;
        }
      } catch (RuntimeException e) {
        if (!masterDown) {
          LOG.warn(
              "slot {}: cannot claim a job, trying again every {}: {}",
              name,
              MASTER_DOWN_WAIT,
              e.toString());
          masterDown = true;
        }
        idle.await(MASTER_DOWN_WAIT);
        continue;
      }
      if (claimed.isEmpty()) {
        if (System.nanoTime() - began < CLAIM_WAIT.toNanos() / 2) {
          waitForWork(); // the master did not wait: do not poll it without pause
        }
        continue;
      }
      idleWait = MIN_IDLE;
      runOne(claimed.get());
    }
  }

  private void runOne(ClaimedJob job) {
    JobRun run = new JobRun(ctx, job);
    current = run;
    listener.started(run);
    JobRun.Outcome outcome = JobRun.Outcome.LOST;
    try {
      if (stopping.getAsBoolean()) {
        run.handBack(); // stop came between the claim and here
      }
      outcome = run.run();
    } catch (RuntimeException e) {
      LOG.error(
          "slot {}: job {} failed in the worker itself (a bug): {}",
          name,
          job.tokenName(),
          e.toString(),
          e);
    } finally {
      current = null;
      listener.ended(run, outcome);
    }
    if (outcome == JobRun.Outcome.NO_ROOM) {
      idle.await(NO_ROOM_WAIT);
    }
    if (outcome == JobRun.Outcome.SUCCEEDED) {
      // A fan-out made several children runnable: siblings waiting in the master are woken by it;
      // those
      // backing off here (a master that does not wait) take them now.
      idle.wakeAll();
    }
  }

  /**
   * Where an idle slot waits when the master answered an empty claim at once: a short bounded
   * backoff (50 ms doubling to 200 ms), cut short when a sibling slot finishes a job.
   */
  private void waitForWork() {
    idle.await(idleWait);
    idleWait =
        idleWait.multipliedBy(2).compareTo(MAX_IDLE) > 0 ? MAX_IDLE : idleWait.multipliedBy(2);
  }
}
