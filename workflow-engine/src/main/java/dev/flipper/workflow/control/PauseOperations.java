package dev.flipper.workflow.control;

import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.Owners;

/**
 * {@code pause} and {@code resume} of one instance. Pause sets the instance's PAUSE signal and
 * nothing else: workers start no job of the instance (a claimed one is held {@code paused}), while
 * jobs already running finish and their results are recorded as usual. Pinball rewrote every token
 * of the instance, so a running job lost its lease and its result. Resume removes the signal and
 * releases the held jobs. Thread-safe.
 */
final class PauseOperations {
  private final WorkflowEngine engine;
  private final SignalSwitch signals;

  PauseOperations(WorkflowEngine engine, SignalSwitch signals) {
    this.engine = engine;
    this.signals = signals;
  }

  ControlResult pause(String workflow, String instance) {
    InstanceTokens tokens = InstanceTokens.require(engine.master(), workflow, instance);
    if (!tokens.isRunning()) {
      throw new ControlRefusedException(
          "instance "
              + workflow
              + "/"
              + instance
              + " has ended ("
              + tokens.status()
              + "); there is nothing to pause");
    }
    return signals.set("pause", SignalAction.PAUSE, ControlScope.instance(workflow, instance));
  }

  ControlResult resume(String workflow, String instance) {
    return signals.remove(
        "resume",
        SignalAction.PAUSE,
        ControlScope.instance(workflow, instance),
        Owners.PAUSED,
        token -> true);
  }
}
