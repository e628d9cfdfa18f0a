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
 * One scheduler's work, one pass at a time: claim the due schedule tokens ({@code queryAndOwn} on {@code
 * /schedule/}: a schedule is claimable once its lease, the next run time, has passed), fire each in one atomic
 * modify, and say when the next one is due. Several runners, in one process or many, may share a master: a
 * claim is exclusive, and the modify carries the claimed version, so a slot never fires twice. A runner that
 * dies holding a claim leaves it to the others when the claim's lease ends.
 *
 * <p>{@link #runOnce()} does no waiting, so tests drive it with a settable clock; {@link SchedulerLoop} runs it
 * on a thread. Thread-safe.
 */
public final class ScheduleRunner {
  private static final Logger log = LoggerFactory.getLogger(ScheduleRunner.class);
  private static final int MAX_ID_TRIES = 20;

  private final TokenMaster master;
  private final Clock clock;
  private final SchedulerOptions options;
  private final ScheduleFiring firing;
  private final AtomicLong started = new AtomicLong();

  public ScheduleRunner(TokenMaster master, Clock clock, InstanceStarter starter, ScheduleNotifier notifier,
      SchedulerOptions options) {
    this.master = Objects.requireNonNull(master, "master");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.options = Objects.requireNonNull(options, "options");
    this.firing = new ScheduleFiring(options.owner(), starter, notifier, options.recheck());
  }

  /** Instances this runner started. */
  public long startedCount() {
    return started.get();
  }

  /**
   * Claims and fires what is due now; returns when to run again: now if more may be due, else the earliest
   * lease end among the schedules (at most {@link SchedulerOptions#maxSleep()} away, so a schedule written by
   * another process is seen in time).
   */
  public Instant runOnce() {
    Instant now = clock.instant();
    List<Token> claimed = master.queryAndOwn(QueryAndOwnParams.of(options.owner(), now.plus(options.claimLease()),
        Query.top(ScheduleTokens.PREFIX, options.batchSize())));
    if (claimed.size() < 2 || !fireTogether(claimed)) {
      for (Token token : claimed) {
        try {
          fire(token);
        } catch (RuntimeException e) {
          // The claim's lease runs out and this or another scheduler tries again.
          log.error("firing schedule {} failed; it is retried after {}", token.name(), options.claimLease(), e);
        }
      }
    }
    if (claimed.size() == options.batchSize()) {
      return now;
    }
    return nextWake(clock.instant());
  }

  /**
   * Fires the whole batch in one modify: one commit instead of one per schedule, which is what bounds a
   * scheduler's rate on a database that commits in a few milliseconds. Each schedule still starts its instance
   * if and only if it advances, since the modify is atomic. False if the batch could not be written (nothing
   * was): the caller then fires the schedules one by one, each with its own conflict handling.
   */
  private boolean fireTogether(List<Token> claimed) {
    Instant now = clock.instant();
    List<FiringPlan> plans = new ArrayList<>();
    List<Token> updates = new ArrayList<>();
    List<Token> deletes = new ArrayList<>();
    try {
      for (Token token : claimed) {
        FiringPlan plan = firing.plan(token, now, 0);
        plans.add(plan);
        updates.addAll(plan.modify().updates());
        deletes.addAll(plan.modify().deletes());
      }
      master.modify(new ModifyParams(updates, deletes));
    } catch (RuntimeException e) {
      log.debug("{} schedules not fired together ({}); firing them one by one", claimed.size(), e.toString());
      return false;
    }
    for (FiringPlan plan : plans) {
      plan.instance().ifPresent(i -> started.incrementAndGet());
      log.info("{}", plan.summary());
      plan.afterCommit().run();
    }
    return true;
  }

  private void fire(Token claimed) {
    for (int attempt = 0; attempt < MAX_ID_TRIES; attempt++) {
      Instant now = clock.instant();
      FiringPlan plan = firing.plan(claimed, now, attempt);
      try {
        master.modify(plan.modify());
      } catch (TokenException e) {
        if (e.errorCode() != TokenErrorCode.VERSION_CONFLICT || !stillOurs(claimed)) {
          log.info("schedule {} changed while it was fired ({}); nothing started", claimed.name(), e.getMessage());
          return;
        }
        continue; // the schedule is unchanged, so the instance id was taken: try the next one
      }
      plan.instance().ifPresent(i -> started.incrementAndGet());
      log.info("{}", plan.summary());
      plan.afterCommit().run();
      return;
    }
    log.warn("schedule {}: no free instance id after {} tries; retried after the claim's lease", claimed.name(),
        MAX_ID_TRIES);
  }

  private boolean stillOurs(Token claimed) {
    Optional<Token> now = master.query(Query.prefix(claimed.name())).stream()
        .filter(t -> t.name().equals(claimed.name())).findFirst();
    return now.isPresent() && now.get().version() == claimed.version();
  }

  private Instant nextWake(Instant now) {
    Instant wake = now.plus(options.maxSleep());
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
