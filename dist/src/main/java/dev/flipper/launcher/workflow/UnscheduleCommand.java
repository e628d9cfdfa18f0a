package dev.flipper.launcher.workflow;

import dev.flipper.workflow.control.ControlResult;
import dev.flipper.workflow.control.WorkflowControl;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flipper workflow unschedule -w WF}: remove a workflow's schedule; its instances are
 * untouched.
 */
@Command(
    name = "unschedule",
    mixinStandardHelpOptions = true,
    description = {
      "Removes a workflow's schedule token, so the scheduler starts no more instances of it.",
      "Existing instances are untouched; the next apply of a file with a schedule: block schedules it "
          + "again.",
      "Exit code 0 when removed; 1 if it had no schedule or on a problem with the master; 2 on usage "
          + "errors."
    },
    footer = {"", "Example:", "  flipper workflow unschedule -c conf/flipper.yaml -w etl"})
public final class UnscheduleCommand implements Callable<Integer> {
  @Option(
      names = {"-w", "--workflow"},
      required = true,
      paramLabel = "WF",
      description = "The workflow.")
  String workflow;

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    try (WorkflowClient client = new WorkflowClient(master)) {
      // The same operation as the UI's unschedule action.
      ControlResult result = WorkflowControl.builder(client.engine).build().unschedule(workflow);
      if (!result.changed()) {
        spec.commandLine().getErr().println("workflow '" + workflow + "' has no schedule");
        return 1;
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println("unscheduled: " + workflow);
      return 0;
    }
  }
}
