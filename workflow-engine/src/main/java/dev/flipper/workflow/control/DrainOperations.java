package dev.flipper.workflow.control;

import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.Owners;

/**
 * {@code drain} and {@code undrain} at global, workflow or instance scope (docs/workflows.md,
 * "Control operations"): a DRAIN signal makes workers start nothing in the covered instances;
 * running jobs finish and their results are kept. Undrain removes it and releases the jobs held
 * meanwhile. Thread-safe.
 */
final class DrainOperations {
  private final WorkflowEngine engine;
  private final SignalSwitch signals;

  DrainOperations(WorkflowEngine engine, SignalSwitch signals) {
    this.engine = engine;
    this.signals = signals;
  }

  ControlResult drain(ControlScope scope) {
    ScopeCheck.requireExists(engine, scope);
    return signals.set("drain", SignalAction.DRAIN, scope);
  }

  ControlResult undrain(ControlScope scope) {
    return signals.remove("undrain", SignalAction.DRAIN, scope, Owners.DRAINED, token -> true);
  }
}
