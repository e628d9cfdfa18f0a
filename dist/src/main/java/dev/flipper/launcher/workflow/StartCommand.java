package dev.flipper.launcher.workflow;

import dev.flipper.workflow.control.WorkflowControl;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.SignalAction;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code flipper workflow start -w WF [--wait]}: start an instance now. */
@Command(
    name = "start",
    mixinStandardHelpOptions = true,
    description = {
      "Starts an instance of a stored workflow and prints its id.",
      "With --wait, blocks until the instance ends: exit code 0 on SUCCESS, 1 otherwise."
    },
    footer = {"", "Example:", "  flipper workflow start -c conf/flipper.yaml -w etl --wait"})
public final class StartCommand implements Callable<Integer> {
  /**
   * Between two status reads while waiting: short, so the end is seen quickly, but no busy loop.
   */
  static final Duration WAIT_POLL = Duration.ofMillis(250);

  @Option(
      names = {"-w", "--workflow"},
      required = true,
      paramLabel = "WF",
      description = "The workflow.")
  String workflow;

  @Option(
      names = "--wait",
      description = "Wait for the instance to end; exit 0 on SUCCESS, 1 otherwise.")
  boolean waitForEnd;

  @Option(
      names = "--param",
      paramLabel = "KEY=VALUE",
      description = "A parameter kept in the instance record. Repeatable.")
  Map<String, String> params = new LinkedHashMap<>();

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (WorkflowClient client = new WorkflowClient(master)) {
      // Through the control: refused when the schedule's maxRunning is reached, works without a
      // schedule.
      String instance =
          WorkflowControl.builder(client.engine)
              .build()
              .start(workflow, "cli", params)
              .instance()
              .orElseThrow();
      out.println(instance);
      out.flush();
      if (client.engine.signals(workflow, instance).contains(SignalAction.ABORT)) {
        err.println(
            "warning: an ABORT signal covers workflow "
                + workflow
                + " (set for the workflow or globally): instance "
                + instance
                + " will end ABORTED at once; 'flipper workflow unabort -w "
                + workflow
                + "' (or without -w) lifts it");
        err.flush();
      }
      if (!waitForEnd) {
        return 0;
      }
      // The bounded long-poll of the master is not there yet; a status read every 250 ms costs
      // little.
      while (true) {
        Optional<InstanceDetail> detail = client.engine.status().instance(workflow, instance);
        if (detail.isEmpty()) {
          err.println(
              "instance "
                  + workflow
                  + "/"
                  + instance
                  + " is gone (stopped or archived) before it ended");
          return 1;
        }
        InstanceStatus status = detail.get().summary().status();
        if (status.isFinished()) {
          out.println(status);
          return status == InstanceStatus.SUCCESS ? 0 : 1;
        }
        Thread.sleep(WAIT_POLL.toMillis());
      }
    }
  }
}
