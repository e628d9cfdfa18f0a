package dev.flipper.launcher;

import dev.flipper.launcher.workflow.ApplyCommand;
import dev.flipper.launcher.workflow.BackfillCommand;
import dev.flipper.launcher.workflow.ControlCommands;
import dev.flipper.launcher.workflow.ExitCommands;
import dev.flipper.launcher.workflow.ExplainCommand;
import dev.flipper.launcher.workflow.LogsCommand;
import dev.flipper.launcher.workflow.StartCommand;
import dev.flipper.launcher.workflow.StatusCommand;
import dev.flipper.launcher.workflow.UnscheduleCommand;
import dev.flipper.launcher.workflow.WorkersCommand;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.definition.WorkflowFileSet;
import dev.flipper.workflow.scheduler.ScheduleChecks;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flipper workflow ...}: workflow definitions and instances. {@code validate} checks files
 * without a master; {@code apply}, {@code start} and {@code status} talk to the master found from
 * {@code -c FILE} and {@code --set} (package {@code dev.flipper.launcher.workflow}).
 */
@Command(
    name = "workflow",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Workflow definitions and instances (see docs/workflows.md).",
    subcommands = {
      WorkflowCommand.Validate.class,
      ApplyCommand.class,
      StartCommand.class,
      StatusCommand.class,
      UnscheduleCommand.class,
      BackfillCommand.class,
      LogsCommand.class,
      // Control operations (issue 12)
      ControlCommands.Drain.class,
      ControlCommands.Undrain.class,
      ControlCommands.Abort.class,
      ControlCommands.Unabort.class,
      ControlCommands.Archive.class,
      ControlCommands.Unarchive.class,
      ControlCommands.Pause.class,
      ControlCommands.Resume.class,
      ControlCommands.Stop.class,
      ControlCommands.Retry.class,
      ControlCommands.Redo.class,
      ControlCommands.Poison.class,
      ControlCommands.Disable.class,
      ControlCommands.Enable.class,
      ControlCommands.Reload.class,
      ControlCommands.Cleanup.class,
      // The worker fleet: heartbeats, upgrades, why not running (issue 12)
      WorkersCommand.class,
      ExitCommands.Exit.class,
      ExitCommands.Unexit.class,
      ExplainCommand.class
    })
final class WorkflowCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    // Named from the registered subcommands (an alias such as reschedule maps to its command,
    // listed once).
    String names =
        spec.subcommands().values().stream()
            .map(CommandLine::getCommandName)
            .distinct()
            .collect(Collectors.joining(", "));
    return Launcher.usageError(spec.commandLine().getErr(), "missing subcommand (" + names + ")");
  }

  /**
   * {@code flipper workflow validate FILE|DIR...}: exit 0 if every file is valid, 1 if not, 2 on
   * usage errors.
   */
  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Checks workflow files without a master: a directory means its *.yaml and *.yml files.",
        "Exit code 0 if every file is valid; 1 and every problem on stderr (file:line: message) if not."
      },
      footer = {"", "Example:", "  flipper workflow validate examples/workflows"})
  static final class Validate implements Callable<Integer> {
    @Parameters(
        paramLabel = "FILE|DIR",
        arity = "1..*",
        description = "Workflow files or directories of them.")
    List<Path> paths = new ArrayList<>();

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      WorkflowFileSet.Result result = WorkflowFileSet.read(paths);
      result.problems().forEach(err::println);
      int problems = result.problems().size();
      for (WorkflowDefinition definition : result.definitions()) {
        // What only the scheduler's cron library refuses (queue-core checks the shape without one).
        List<String> scheduleProblems = ScheduleChecks.problems(List.of(definition));
        scheduleProblems.forEach(err::println);
        problems += scheduleProblems.size();
        if (scheduleProblems.isEmpty()) {
          int jobs = definition.jobs().size();
          out.println(
              "ok: workflow '"
                  + definition.name()
                  + "' ("
                  + jobs
                  + (jobs == 1 ? " job)" : " jobs)"));
        }
      }
      if (problems > 0) {
        err.println(
            problems
                + (problems == 1 ? " problem" : " problems")
                + " in "
                + result.files().size()
                + (result.files().size() == 1 ? " file" : " files"));
        return 1;
      }
      out.println(
          result.files().size() + (result.files().size() == 1 ? " file" : " files") + " valid");
      return 0;
    }
  }
}
