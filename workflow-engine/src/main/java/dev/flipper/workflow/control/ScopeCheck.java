package dev.flipper.workflow.control;

import dev.flipper.workflow.engine.WorkflowEngine;

/**
 * Refuses to set a signal on a scope that does not exist, so a typo does not leave a stray signal.
 * Stateless.
 */
final class ScopeCheck {
  private ScopeCheck() {}

  static void requireExists(WorkflowEngine engine, ControlScope scope) {
    if (scope.isInstance()) {
      InstanceTokens.require(engine.master(), scope.workflow().get(), scope.instance().get());
      return;
    }
    scope
        .workflow()
        .ifPresent(
            wf -> {
              if (engine.definitions().get(wf).isEmpty()
                  && engine.status().instances(wf).isEmpty()) {
                throw new IllegalArgumentException(
                    "no workflow '"
                        + wf
                        + "': it has no stored definition and no active"
                        + " instance (see flipper workflow status)");
              }
            });
  }
}
