package dev.flipper.workflow.control;

import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.Optional;

/**
 * Where an operation applies: every workflow (global), one workflow, or one instance. A signal set
 * at a scope applies to every instance below it. Immutable.
 *
 * @param workflow empty for global scope
 * @param instance present only with a workflow
 */
public record ControlScope(Optional<String> workflow, Optional<String> instance) {
  public ControlScope {
    if (instance.isPresent() && workflow.isEmpty()) {
      throw new IllegalArgumentException(
          "an instance (-i " + instance.get() + ") needs its workflow (-w WF)");
    }
  }

  public static ControlScope global() {
    return new ControlScope(Optional.empty(), Optional.empty());
  }

  public static ControlScope workflow(String workflow) {
    return new ControlScope(Optional.of(workflow), Optional.empty());
  }

  public static ControlScope instance(String workflow, String instance) {
    return new ControlScope(Optional.of(workflow), Optional.of(instance));
  }

  /** From the CLI's {@code -w} and {@code -i}, either of which may be null. */
  public static ControlScope of(String workflow, String instance) {
    return new ControlScope(Optional.ofNullable(workflow), Optional.ofNullable(instance));
  }

  public boolean isGlobal() {
    return workflow.isEmpty();
  }

  public boolean isInstance() {
    return instance.isPresent();
  }

  /** The signal token of {@code action} at this scope. */
  String signal(SignalAction action) {
    if (isInstance()) {
      return TokenLayout.instanceSignal(workflow.get(), instance.get(), action);
    }
    return workflow
        .map(wf -> TokenLayout.workflowSignal(wf, action))
        .orElse(TokenLayout.globalSignal(action));
  }

  /** Every runnable job token of the instances covered. */
  String runnablePrefix() {
    if (isInstance()) {
      return TokenLayout.runnablePrefix(workflow.get(), instance.get());
    }
    return workflow.map(wf -> TokenLayout.RUNNABLE + wf + "/").orElse(TokenLayout.RUNNABLE);
  }

  /** {@code global}, {@code workflow etl}, {@code instance etl/1764000000000}. */
  @Override
  public String toString() {
    if (isInstance()) {
      return "instance " + workflow.get() + "/" + instance.get();
    }
    return workflow.map(wf -> "workflow " + wf).orElse("global");
  }
}
