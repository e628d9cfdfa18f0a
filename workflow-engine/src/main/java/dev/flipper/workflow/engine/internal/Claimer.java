package dev.flipper.workflow.engine.internal;

import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.LeaseLostException;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims the best runnable job across all workflows with one queryAndOwn on {@code /runnable/}, and
 * settles what needs no process before handing it out:
 *
 * <ul>
 *   <li>a job whose instance is drained, aborted (a signal at any scope) or paused is held (owner
 *       {@code drained}, {@code aborted} or {@code paused}, lease forever) for the control
 *       operations to release;
 *   <li>a job whose last execution is still open lost its worker: the record is closed as failed
 *       ("lease lost") and the retry rules apply (docs/workflows.md, "How an instance runs");
 *   <li>a disabled job succeeds at once with a {@code DISABLED} record.
 * </ul>
 *
 * Thread-safe.
 */
public final class Claimer {
  /** Jobs settled per call before giving up for now, so one call stays short. */
  private static final int MAX_SETTLED_PER_CLAIM = 100;

  private static final Logger LOG = LoggerFactory.getLogger(Claimer.class);

  private final TokenMaster master;
  private final Clock clock;
  private final JobTransitions transitions;
  private final Notices notices;

  public Claimer(TokenMaster master, Clock clock, JobTransitions transitions, Notices notices) {
    this.master = master;
    this.clock = clock;
    this.transitions = transitions;
    this.notices = notices;
  }

  /** A claimed job: its token (now owned by the worker) and data. */
  public record Claim(Token token, JobData data) {}

  /**
   * @param wait how long the claim may wait for a runnable job (a waiting queryAndOwn); zero = not
   *     at all
   */
  public Optional<Claim> claim(String worker, Duration lease, Duration wait) {
    for (int i = 0; i < MAX_SETTLED_PER_CLAIM; i++) {
      // The lease counts from the call: a token claimed at the end of the wait still has a whole
      // lease.
      long expiration =
          JobTransitions.ceilSeconds(clock.millis() + wait.toMillis() + lease.toMillis());
      List<Token> claimed =
          master.queryAndOwn(
              new QueryAndOwnParams(worker, expiration, Query.top(TokenLayout.RUNNABLE, 1))
                  .withWaitTime(wait));
      if (claimed.isEmpty()) {
        return Optional.empty();
      }
      Token token = claimed.get(0);
      JobData data = Json.read(token, JobData.class);
      try {
        Optional<Claim> ready = settle(token, data);
        if (ready.isPresent()) {
          return ready;
        }
      } catch (LeaseLostException e) {
        // Someone changed it between our claim and our write (an operator): leave it to them.
        LOG.debug("claimed job changed under us", e);
      }
    }
    return Optional.empty();
  }

  /** The claim if the job should run now; empty if it was settled here. */
  private Optional<Claim> settle(Token token, JobData data) {
    Set<SignalAction> signals = signals(data.workflow, data.instance);
    if (signals.contains(SignalAction.ABORT)) {
      transitions.rewrite(token, data, Owners.ABORTED, Owners.FOREVER);
      // Held for good now: if nothing of the instance runs any more, it ends as ABORTED.
      transitions.endIfDone(data.workflow, data.instance);
      return Optional.empty();
    }
    if (signals.contains(SignalAction.DRAIN)) {
      transitions.rewrite(token, data, Owners.DRAINED, Owners.FOREVER);
      return Optional.empty();
    }
    if (signals.contains(SignalAction.PAUSE)) {
      transitions.rewrite(token, data, Owners.PAUSED, Owners.FOREVER);
      return Optional.empty();
    }
    if (data.hasOpenExecution()) {
      ExecutionData stale = data.lastExecution();
      stale.endMillis = clock.millis();
      stale.endReason = "lease lost";
      LOG.info(
          "job {}/{}/{} execution {} on worker {} lost its lease; closed as failed",
          data.workflow,
          data.instance,
          data.name,
          stale.execution,
          stale.worker);
      if (!data.attemptsLeft()) {
        notices.jobFailed(data, transitions.failForGood(token, data));
        notices.instanceEnded(data, transitions.endIfDone(data.workflow, data.instance));
        return Optional.empty();
      }
      if (data.retryDelayMillis > 0) {
        transitions.retry(token, data);
        return Optional.empty();
      }
      Token kept = transitions.rewrite(token, data, token.owner(), token.expirationTime());
      return Optional.of(new Claim(kept, data));
    }
    if (data.disabled) {
      ExecutionData record =
          Executions.open(data, ExecutionData.DISABLED_INFO, token.owner(), null, clock.millis());
      record.endMillis = record.startMillis;
      record.exitCode = 0;
      if (!transitions.succeed(token, data)) {
        notices.instanceEnded(data, transitions.endIfDone(data.workflow, data.instance));
      }
      return Optional.empty();
    }
    return Optional.of(new Claim(token, data));
  }

  /** The actions signalled for this instance at any scope: one query of three prefixes. */
  public Set<SignalAction> signals(String wf, String inst) {
    return actions(
        master.query(
            List.of(
                Query.prefix(TokenLayout.globalSignalPrefix()),
                Query.prefix(TokenLayout.workflowSignalPrefix(wf)),
                Query.prefix(TokenLayout.instanceSignalPrefix(wf, inst)))));
  }

  public Set<SignalAction> globalSignals() {
    return actions(master.query(List.of(Query.prefix(TokenLayout.globalSignalPrefix()))));
  }

  /** The actions named by these signal tokens (any scope). */
  static Set<SignalAction> actions(List<List<Token>> read) {
    Set<SignalAction> actions = EnumSet.noneOf(SignalAction.class);
    for (List<Token> scope : read) {
      for (Token signal : scope) {
        String last = TokenLayout.last(signal.name());
        for (SignalAction action : SignalAction.values()) {
          if (action.name().equals(last)) {
            actions.add(action);
          }
        }
      }
    }
    return actions;
  }
}
