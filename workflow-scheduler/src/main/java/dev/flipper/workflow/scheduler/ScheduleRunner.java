package dev.flipper.workflow.scheduler;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.schedule.ScheduleTokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduler's work, one pass at a time: claim the due schedule tokens ({@code queryAndOwn} on
 * {@code /schedule/}: a schedule is claimable once its lease, the next run time, has passed), fire
 * each in one atomic modify, and say when the next one is due. Several runners, in one process or
 * many, may share a master: a claim is exclusive, and the modify carries the claimed version, so a
 * slot never fires twice. A runner that dies holding a claim leaves it to the others when the
 * claim's lease ends.
 *
 * <p>{@link #runOnce()} does no waiting, so tests drive it with a settable clock; {@link
 * SchedulerLoop} runs {@link #pass(Duration) passes} that wait in the master on a thread.
 * Thread-safe.
 */
public final class ScheduleRunner {
  private static final Logger log = LoggerFactory.getLogger(ScheduleRunner.class);

  private final TokenMaster master;
  private final Clock clock;
  private final SchedulerOptions options;
  private final ScheduleFiring firing;
  private final InstanceStarter starter;
  private final AtomicLong started = new AtomicLong();

  public ScheduleRunner(
      TokenMaster master,
      Clock clock,
      InstanceStarter starter,
      ScheduleNotifier notifier,
      SchedulerOptions options) {
    this.master = Objects.requireNonNull(master, "master");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.options = Objects.requireNonNull(options, "options");
    this.starter = Objects.requireNonNull(starter, "starter");
    this.firing = new ScheduleFiring(options.owner(), starter, notifier, options.recheck());
  }

  /** Instances this runner started. */
  public long startedCount() {
    return started.get();
  }

  /** What a pass did: how many schedules it claimed, and when to run the next one. */
  public record Pass(int claimed, Instant next) {}

  /**
   * Claims and fires what is due now; returns when to run again: now if more may be due, else the
   * earliest lease end among the schedules (at most {@link SchedulerOptions#maxWait()} away, so a
   * schedule claimed by a scheduler that died is seen in time).
   */
  public Instant runOnce() {
    return pass(Duration.ZERO).next();
  }

  /**
   * A pass whose claim may wait in the master up to {@code wait} (a waiting queryAndOwn) when
   * nothing is due: it returns as soon as a schedule is written claimable (an apply) or, at the
   * master's re-check, falls due. The caller passes the time until the next due schedule, so the
   * scheduler sleeps in the master, not on a timer.
   */
  public Pass pass(Duration wait) {
    Instant now = clock.instant();
    // The lease counts from the end of the wait: a schedule claimed late in the wait still has a
    // whole lease.
    QueryAndOwnParams claim =
        QueryAndOwnParams.of(
            options.owner(),
            now.plus(wait).plus(options.claimLease()),
            Query.top(ScheduleTokens.PREFIX, options.batchSize()));
    List<Token> claimed =
        master.queryAndOwn(wait.isZero() || wait.isNegative() ? claim : claim.withWaitTime(wait));
    if (claimed.size() < 2 || !fireTogether(claimed)) {
      for (Token token : claimed) {
        try {
          fire(token);
        } catch (RuntimeException e) {
          // The claim's lease runs out and this or another scheduler tries again.
          log.error(
              "firing schedule {} failed; it is retried after {}",
              token.name(),
              options.claimLease(),
              e);
        }
      }
    }
    if (claimed.size() == options.batchSize()) {
      return new Pass(claimed.size(), clock.instant());
    }
    return new Pass(claimed.size(), nextWake(clock.instant()));
  }

  /**
   * Fires the whole batch in one modify: one commit instead of one per schedule, which is what
   * bounds a scheduler's rate on a database that commits in a few milliseconds. Each schedule still
   * starts its instance if and only if it advances, since the modify is atomic. Only with a starter
   * that {@linkplain InstanceStarter#buildsTokens builds tokens}. False if the batch could not be
   * written (nothing was): the caller then fires the schedules one by one, each with its own
   * conflict handling.
   */
  private boolean fireTogether(List<Token> claimed) {
    if (!starter.buildsTokens()) {
      return false;
    }
    Instant now = clock.instant();
    List<FiringPlan> plans = new ArrayList<>();
    List<Token> updates = new ArrayList<>();
    try {
      InstanceStarter batch =
          starter.forBatch(claimed.stream().map(t -> ScheduleTokens.workflowOf(t.name())).toList());
      for (Token token : claimed) {
        FiringPlan plan = firing.plan(token, now, batch);
        plans.add(plan);
        updates.addAll(plan.writes());
        if (plan.start().isPresent()) {
          // One id for the batch: the workflows differ, and so do their instances' names.
          Optional<List<Token>> tokens =
              batch.startTokens(
                  plan.start().get().workflow(),
                  Long.toString(now.toEpochMilli()),
                  plan.start().get().params());
          if (tokens.isEmpty()) {
            return false; // not stored: one by one, where it waits
          }
          updates.addAll(tokens.get());
        }
      }
      master.modify(new ModifyParams(updates, List.of()));
    } catch (RuntimeException e) {
      log.debug(
          "{} schedules not fired together ({}); firing them one by one",
          claimed.size(),
          e.toString());
      return false;
    }
    for (FiringPlan plan : plans) {
      done(plan, plan.start().map(s -> Long.toString(now.toEpochMilli())));
    }
    return true;
  }

  private void fire(Token claimed) {
    FiringPlan plan = firing.plan(claimed, clock.instant());
    try {
      if (plan.start().isEmpty()) {
        master.modify(new ModifyParams(plan.writes(), List.of()));
        done(plan, Optional.empty());
        return;
      }
      FiringPlan.Start start = plan.start().get();
      Optional<String> instance = starter.start(start.workflow(), start.params(), plan.writes());
      if (instance.isEmpty()) {
        master.modify(new ModifyParams(plan.whenNotStored(), List.of()));
        log.warn(
            "workflow {} is scheduled but not stored; apply its definition or unschedule it (looking again "
                + "in {})",
            start.workflow(),
            options.recheck());
        return;
      }
      done(plan, instance);
    } catch (TokenException e) {
      if (e.errorCode() != TokenErrorCode.VERSION_CONFLICT
          && e.errorCode() != TokenErrorCode.NOT_FOUND) {
        throw e;
      }
      log.info(
          "schedule {} changed while it was fired ({}); nothing started",
          claimed.name(),
          e.getMessage());
    }
  }

  private void done(FiringPlan plan, Optional<String> instance) {
    instance.ifPresent(i -> started.incrementAndGet());
    log.info("{}{}", plan.summary(), instance.map(i -> " (instance " + i + ")").orElse(""));
    plan.afterCommit().run();
  }

  private Instant nextWake(Instant now) {
    Instant wake = now.plus(options.maxWait());
    for (Token token : master.query(Query.prefix(ScheduleTokens.PREFIX))) {
      if (!token.isOwnedAt(now)) {
        return now;
      }
      // Compare seconds first: an expiration of Long.MAX_VALUE ("never") is no Instant.
      if (token.expirationTime() <= wake.getEpochSecond()
          && Instant.ofEpochSecond(token.expirationTime()).isBefore(wake)) {
        wake = Instant.ofEpochSecond(token.expirationTime());
      }
    }
    return wake;
  }
}
