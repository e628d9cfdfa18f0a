package dev.flipper.workflow.worker.internal;

import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.WorkflowEngine;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of a worker's {@code workers.count} job slots: a loop on its own thread that claims a runnable job, runs
 * it, and claims the next at once. Between hops there is no sleep: after a job, the slot claims again at
 * once (a success made the children runnable in the same change, and it wakes its idle siblings too). Only
 * a slot that found nothing waits, in {@link #waitForWork()}. Thread-safe.
 */
public final class Slot implements Runnable {
  /** An idle slot re-checks after this, doubling to {@link #MAX_IDLE}, unless a sibling wakes it first. */
  static final Duration MIN_IDLE = Duration.ofMillis(50);
  static final Duration MAX_IDLE = Duration.ofMillis(200);
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

  public Slot(String name, JobRun.Context ctx, Duration lease, IdleWait idle, BooleanSupplier stopping,
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
      try {
        claimed = ctx.engine().claim(name, lease);
        if (masterDown) {
          LOG.info("slot {}: the master answers again", name);
          masterDown = false;
        }
      } catch (RuntimeException e) {
        if (!masterDown) {
          LOG.warn("slot {}: cannot claim a job, trying again every {}: {}", name, MASTER_DOWN_WAIT, e.toString());
          masterDown = true;
        }
        idle.await(MASTER_DOWN_WAIT);
        continue;
      }
      if (claimed.isEmpty()) {
        waitForWork();
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
      LOG.error("slot {}: job {} failed in the worker itself (a bug): {}", name, job.tokenName(), e.toString(), e);
    } finally {
      current = null;
      listener.ended(run, outcome);
    }
    if (outcome == JobRun.Outcome.SUCCEEDED) {
      idle.wakeAll(); // a fan-out made several children runnable: let idle siblings take them now
    }
  }

  /**
   * The one place an idle slot waits: a short bounded backoff (50 ms doubling to 200 ms), cut short when a
   * sibling slot finishes a job. A long-poll claim on the master (a bounded wait inside queryAndOwn) replaces
   * this with a plain return.
   */
  private void waitForWork() {
    idle.await(idleWait);
    idleWait = idleWait.multipliedBy(2).compareTo(MAX_IDLE) > 0 ? MAX_IDLE : idleWait.multipliedBy(2);
  }
}
