package dev.flipper.workflow.scheduler.overrun;

import dev.flipper.workflow.definition.OverrunPolicy;

/**
 * Decides what a due slot does, from the workflow's overrun policy, its {@code maxRunning} and its
 * instances: Pinball's meanings (docs/scheduler.md, "Overrun policies"), with {@code maxRunning}
 * enforced exactly. Pure and stateless.
 *
 * <table>
 *   <caption>Decisions</caption>
 *   <tr><th>policy</th><th>an instance runs</th><th>none runs</th></tr>
 *   <tr><td>SKIP</td><td>skip the slot</td><td>start</td></tr>
 *   <tr><td>ABORT_RUNNING</td><td>abort them all and start, in one change</td><td>start</td></tr>
 *   <tr><td>DELAY</td><td>wait (slot kept)</td><td>start</td></tr>
 *   <tr><td>DELAY_UNTIL_SUCCESS</td><td>wait</td><td>start if the last finished instance succeeded (or none
 *       finished yet); after a FAILURE or ABORTED one, wait until someone retries it or starts one that
 *       succeeds</td></tr>
 *   <tr><td>START_NEW</td><td>start if fewer than maxRunning run, else too many</td><td>start</td></tr>
 * </table>
 *
 * <p>The limit applies only where a start would add an instance to running ones, so only START_NEW
 * meets it ({@code running >= maxRunning} refuses: Pinball's {@code >} let one too many run).
 * ABORT_RUNNING starts after aborting every running instance, so it never counts them; SKIP, DELAY
 * and DELAY_UNTIL_SUCCESS start only when none runs, and maxRunning is at least 1. Instances
 * started by hand count as running like any other.
 */
public final class OverrunRules {

  private OverrunRules() {}

  public static OverrunDecision decide(OverrunPolicy policy, int maxRunning, WorkflowRuns runs) {
    if (maxRunning < 1) {
      throw new IllegalArgumentException("maxRunning must be at least 1, got " + maxRunning);
    }
    int running = runs.runningCount();
    return switch (policy) {
      case SKIP ->
          running > 0 ? new OverrunDecision.Skip(running + " instance(s) running") : start();
      case ABORT_RUNNING -> new OverrunDecision.Start(runs.running());
      case DELAY ->
          running > 0 ? new OverrunDecision.Wait(running + " instance(s) running") : start();
      case DELAY_UNTIL_SUCCESS -> {
        if (running > 0) {
          yield new OverrunDecision.Wait(running + " instance(s) running");
        }
        if (runs.lastFinished().isPresent()
            && runs.lastFinished().get() != InstanceOutcome.SUCCESS) {
          yield new OverrunDecision.Wait(
              "the last finished instance ended "
                  + runs.lastFinished().get()
                  + "; retry it or start one that succeeds");
        }
        yield start();
      }
      case START_NEW ->
          running >= maxRunning ? new OverrunDecision.TooMany(running, maxRunning) : start();
    };
  }

  private static OverrunDecision start() {
    return new OverrunDecision.Start(java.util.List.of());
  }
}
