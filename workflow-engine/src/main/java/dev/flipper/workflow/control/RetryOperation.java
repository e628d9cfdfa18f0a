package dev.flipper.workflow.control;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenException;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code retry} of an instance (docs/workflows.md, "Control operations"), in one modify:
 *
 * <ul>
 *   <li>active: every job whose last execution failed becomes runnable again with the same priority
 *       and the events of that execution (so it runs with the same parameters); an ended instance
 *       is RUNNING again. An instance without a failed job is left alone. An ABORTED instance not
 *       archived yet (workers archive it within a minute) runs again the same way: its instance
 *       ABORT signal goes and the jobs the abort held are released; refused while an ABORT at its
 *       workflow or globally would abort it again.
 *   <li>archived: its jobs and events are copied into a new instance (history kept), the failed
 *       jobs runnable with their last execution's events restored (Pinball dropped them), signals
 *       dropped.
 * </ul>
 *
 * Both refuse when the {@link RunningLimit} is reached and the retry would add a running instance.
 * Thread-safe.
 */
final class RetryOperation {
  private static final int MAX_ID_TRIES = 1000;

  private final WorkflowEngine engine;
  private final Clock clock;
  private final ArchivedTokens archived;

  RetryOperation(WorkflowEngine engine, Clock clock, ArchivedTokens archived) {
    this.engine = engine;
    this.clock = clock;
    this.archived = archived;
  }

  ControlResult retry(String workflow, String instance) {
    ControlScope scope = ControlScope.instance(workflow, instance);
    return ConflictRetry.run(
        "retry " + scope,
        () -> {
          Optional<InstanceTokens> active =
              InstanceTokens.read(engine.master(), workflow, instance);
          return active.isPresent()
              ? retryActive(active.get(), scope)
              : retryArchived(workflow, instance, scope);
        });
  }

  private ControlResult retryActive(InstanceTokens tokens, ControlScope scope) {
    TokenEdit edit = new TokenEdit();
    List<String> failed = new ArrayList<>();
    if (tokens.status() == InstanceStatus.ABORTED) {
      failed.addAll(releaseAborted(tokens, scope, edit));
    }
    for (String name : RerunPlan.failedWaiting(tokens)) {
      Token token = tokens.waiting.get(name);
      JobData job = Json.read(token, JobData.class);
      failed.add(name);
      edit.delete(token, "");
      edit.add(runnable(token, job, tokens.workflow, tokens.instance), "failed job runnable again");
    }
    if (failed.isEmpty()) {
      // An aborted instance with nothing to run again stays ABORTED, its signal too: nothing is
      // written.
      return new TokenEdit().note("no failed job in " + scope).result("retry", scope);
    }
    if (!tokens.isRunning()) {
      RunningLimit.check(engine, tokens.workflow, "retry of " + scope);
    }
    tokens.revive(edit, failed);
    edit.commit(engine.master());
    return edit.result("retry", scope, tokens.instance);
  }

  /**
   * An aborted instance that is not archived yet runs again like a failed one: its instance ABORT
   * signal is removed and the jobs the abort held ({@code aborted}) are released, in {@code edit};
   * returns those jobs. An ABORT at the workflow or global scope would abort it again at once:
   * refused, unabort there first.
   */
  private List<String> releaseAborted(InstanceTokens tokens, ControlScope scope, TokenEdit edit) {
    String wf = tokens.workflow;
    String onWorkflow = TokenLayout.workflowSignal(wf, SignalAction.ABORT);
    String global = TokenLayout.globalSignal(SignalAction.ABORT);
    List<List<Token>> enclosing =
        engine.master().query(List.of(Query.prefix(onWorkflow), Query.prefix(global)));
    if (enclosing.get(0).stream().anyMatch(t -> t.name().equals(onWorkflow))) {
      throw abortedAgain(scope, "on workflow " + wf + " (flipper workflow unabort -w " + wf + ")");
    }
    if (enclosing.get(1).stream().anyMatch(t -> t.name().equals(global))) {
      throw abortedAgain(scope, "globally (flipper workflow unabort)");
    }
    String own = TokenLayout.instanceSignal(tokens.workflow, tokens.instance, SignalAction.ABORT);
    tokens.signals.stream()
        .filter(t -> t.name().equals(own))
        .findFirst()
        .ifPresent(t -> edit.delete(t, "ABORT signal removed: the instance runs again"));
    List<String> released = RerunPlan.heldAborted(tokens);
    released.forEach(
        name ->
            edit.update(tokens.runnable.get(name).withoutOwner(), "released (was held aborted)"));
    return released;
  }

  private static ControlRefusedException abortedAgain(ControlScope scope, String where) {
    return new ControlRefusedException(
        "retry of "
            + scope
            + " refused: an ABORT signal is set "
            + where
            + "; it would abort the instance again at once. Remove it first, then retry");
  }

  /** A failed job's token as runnable: same priority, the last execution's events, a fresh run. */
  private static Token runnable(Token token, JobData job, String wf, String inst) {
    JobData data = Json.copy(job, JobData.class);
    data.workflow = wf;
    data.instance = inst;
    data.events = new ArrayList<>(job.lastExecution().events);
    data.attempt = 0;
    data.readyInputs = null;
    return new Token(
        0, TokenLayout.runnable(wf, inst, job.name), null, 0, token.priority(), Json.write(data));
  }

  private ControlResult retryArchived(String workflow, String instance, ControlScope scope) {
    Map<String, Token> latest = new LinkedHashMap<>();
    List<Token> read =
        new ArrayList<>(archived.query(TokenLayout.instancePrefix(workflow, instance)));
    read.addAll(archived.query(TokenLayout.runnablePrefix(workflow, instance)));
    read.forEach(t -> latest.merge(t.name(), t, (a, b) -> a.version() >= b.version() ? a : b));
    Token record = latest.get(TokenLayout.instanceRecord(workflow, instance));
    if (record == null) {
      throw new IllegalArgumentException("no instance " + scope + ", neither active nor archived");
    }
    RunningLimit.check(engine, workflow, "retry of " + scope);
    long now = clock.millis();
    for (int i = 0; i < MAX_ID_TRIES; i++) {
      String copy = Long.toString(now + i);
      TokenEdit edit = copyInstance(latest.values(), record, workflow, instance, copy, now);
      try {
        edit.commit(engine.master());
        return edit.result("retry", scope, copy);
      } catch (TokenException e) {
        if (!ConflictRetry.isConflict(e)
            || InstanceTokens.read(engine.master(), workflow, copy).isEmpty()) {
          throw e;
        }
        // That id is taken (a start in the same millisecond): the next one.
      }
    }
    throw new IllegalStateException("no free instance id for " + workflow + " from " + now);
  }

  private static TokenEdit copyInstance(
      Iterable<Token> archivedTokens, Token record, String wf, String from, String to, long now) {
    TokenEdit edit = new TokenEdit();
    InstanceData data = Json.read(record, InstanceData.class);
    data.instance = to;
    data.status = InstanceStatus.RUNNING.name();
    data.startMillis = now;
    data.endMillis = null;
    data.failedJobs.clear();
    data.startedBy = "retry";
    data.params.put("retryOf", from);
    edit.add(
        Token.of(TokenLayout.instanceRecord(wf, to), Json.write(data)),
        "retry of " + wf + "/" + from);
    String fromPrefix = TokenLayout.instancePrefix(wf, from);
    String waitingPrefix = TokenLayout.waitingPrefix(wf, from);
    for (Token token : archivedTokens) {
      String name = token.name();
      if (name.startsWith(waitingPrefix) || name.startsWith(TokenLayout.runnablePrefix(wf, from))) {
        JobData job = Json.read(token, JobData.class);
        if (name.startsWith(waitingPrefix) && InstanceTokens.lastFailed(job)) {
          edit.add(runnable(token, job, wf, to), "failed job runnable, its events restored");
          continue;
        }
        job.instance = to;
        job.readyInputs = null; // rebuilt from the events by the next parent's success
        String copied =
            name.startsWith(waitingPrefix)
                ? TokenLayout.waiting(wf, to, job.name)
                : TokenLayout.runnable(wf, to, job.name);
        edit.add(new Token(0, copied, null, 0, token.priority(), Json.write(job)), "copied");
      } else if (name.startsWith(fromPrefix + "input/")) {
        edit.add(
            Token.of(
                TokenLayout.instancePrefix(wf, to) + name.substring(fromPrefix.length()),
                token.data()),
            "copied");
      }
    }
    return edit;
  }
}
