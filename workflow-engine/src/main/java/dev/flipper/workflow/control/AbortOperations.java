package dev.flipper.workflow.control;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.engine.WorkflowSummary;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code abort} and {@code unabort} at global, workflow or instance scope (docs/workflows.md,
 * "Control operations"). Abort sets the ABORT signal (one atomic change): workers start nothing in
 * the covered instances and kill the running jobs at their next lease renewal; an instance ends as
 * ABORTED, and is archived at once, when no worker holds one of its jobs any more. Right after the
 * signal, abort ends the covered instances in which nothing runs (each its own atomic change, as a
 * worker would); the others end when their last running job is finished. Unabort removes the signal
 * and releases the jobs held {@code aborted} in instances that have not ended; an ended instance
 * stays ABORTED (retry runs it again). Thread-safe.
 */
final class AbortOperations {
  private final WorkflowEngine engine;
  private final SignalSwitch signals;

  AbortOperations(WorkflowEngine engine, SignalSwitch signals) {
    this.engine = engine;
    this.signals = signals;
  }

  ControlResult abort(ControlScope scope) {
    ScopeCheck.requireExists(engine, scope);
    if (scope.instance().isPresent()) {
      requireRunning(scope.workflow().orElseThrow(), scope.instance().get());
    }
    ControlResult set = signals.set("abort", SignalAction.ABORT, scope);
    List<ControlResult.Change> changes = new ArrayList<>(set.changes());
    List<String> notes = new ArrayList<>(set.notes());
    for (String[] instance : covered(scope)) {
      Map<String, Long> before = versions(instance[0], instance[1]);
      if (engine.endIfDone(instance[0], instance[1]).isPresent()) {
        Map<String, Long> after = versions(instance[0], instance[1]);
        after.forEach(
            (name, version) -> {
              if (!before.containsKey(name)) {
                changes.add(new ControlResult.Change("added", name, "instance ended ABORTED"));
              } else if (!Objects.equals(before.get(name), version)) {
                changes.add(new ControlResult.Change("updated", name, "instance ended ABORTED"));
              }
            });
      } else {
        notes.add(
            "instance "
                + instance[0]
                + "/"
                + instance[1]
                + " ends when its running jobs are killed");
      }
    }
    return new ControlResult(
        "abort", scope.toString(), changes, notes, Optional.empty(), List.of());
  }

  /** An ended instance is not aborted: the signal would only stay behind. */
  private void requireRunning(String wf, String inst) {
    Optional<InstanceStatus> status =
        engine.status().instance(wf, inst).map(detail -> detail.summary().status());
    if (status.isEmpty() || status.get().isFinished()) {
      throw new ControlRefusedException(
          "instance "
              + wf
              + "/"
              + inst
              + " has ended"
              + status.map(s -> " as " + s).orElse(" and is archived")
              + ": there is nothing to abort; no signal was set");
    }
  }

  ControlResult unabort(ControlScope scope) {
    Map<String, Boolean> running = new HashMap<>();
    return signals.remove(
        "unabort",
        SignalAction.ABORT,
        scope,
        Owners.ABORTED,
        token -> {
          String[] parts = TokenLayout.parseRunnable(token.name());
          return running.computeIfAbsent(
              parts[0] + "/" + parts[1], k -> isRunning(parts[0], parts[1]));
        });
  }

  private boolean isRunning(String wf, String inst) {
    String name = TokenLayout.instanceRecord(wf, inst);
    return engine.master().query(Query.prefix(name)).stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .map(t -> InstanceStatus.RUNNING.name().equals(Json.read(t, InstanceData.class).status))
        .orElse(false);
  }

  /** The running instances under the scope, as {@code [workflow, instance]}. */
  private List<String[]> covered(ControlScope scope) {
    List<String> workflows =
        scope
            .workflow()
            .map(List::of)
            .orElseGet(
                () -> engine.status().workflows().stream().map(WorkflowSummary::name).toList());
    List<String[]> covered = new ArrayList<>();
    for (String wf : workflows) {
      for (InstanceSummary summary : engine.status().instances(wf)) {
        boolean inScope = scope.instance().map(summary.instance()::equals).orElse(true);
        if (inScope && summary.status() == InstanceStatus.RUNNING) {
          covered.add(new String[] {wf, summary.instance()});
        }
      }
    }
    return covered;
  }

  private Map<String, Long> versions(String wf, String inst) {
    Map<String, Long> versions = new HashMap<>();
    InstanceTokens.read(engine.master(), wf, inst)
        .ifPresent(
            t -> {
              for (Token token : t.all) {
                versions.put(token.name(), token.version());
              }
            });
    return versions;
  }
}
