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
    description = "Workflow definitions and instances (see docs/workflows.md)."
    // The subcommands are added by commandLine(leaf), in the order of LEAVES.
    )
final class WorkflowCommand implements Callable<Integer> {
  /** The subcommands' names (and aliases), in the order of {@code flipper workflow --help}. */
  static final List<String> LEAVES =
      List.of(
          "validate",
          "apply",
          "start",
          "status",
          "unschedule",
          "backfill",
          "logs",
          // Control operations (issue 12)
          "drain",
          "undrain",
          "abort",
          "unabort",
          "archive",
          "unarchive",
          "pause",
          "resume",
          "stop",
          "retry",
          "redo",
          "poison",
          "disable",
          "enable",
          "reload",
          "cleanup",
          // The worker fleet: heartbeats, upgrades, why not running (issue 12)
          "workers",
          "exit",
          "unexit",
          "explain");

  @Spec CommandLine.Model.CommandSpec spec;

  /**
   * {@code flipper workflow} with only the subcommand {@code leaf} when it names one (the model of
   * a picocli command is built when it is added, loading its classes), else with all of them.
   */
  static CommandLine commandLine(String leaf) {
    CommandLine workflow = new CommandLine(new WorkflowCommand());
    String only = "reschedule".equals(leaf) ? "apply" : leaf;
    boolean one = only != null && LEAVES.contains(only);
    for (String name : LEAVES) {
      if (!one || name.equals(only)) {
        workflow.addSubcommand(leaf(name));
      }
    }
    return workflow;
  }

  private static Class<?> leaf(String name) {
    return switch (name) {
      case "validate" -> Validate.class;
      case "apply" -> ApplyCommand.class;
      case "start" -> StartCommand.class;
      case "status" -> StatusCommand.class;
      case "unschedule" -> UnscheduleCommand.class;
      case "backfill" -> BackfillCommand.class;
      case "logs" -> LogsCommand.class;
      case "drain" -> ControlCommands.Drain.class;
      case "undrain" -> ControlCommands.Undrain.class;
      case "abort" -> ControlCommands.Abort.class;
      case "unabort" -> ControlCommands.Unabort.class;
      case "archive" -> ControlCommands.Archive.class;
      case "unarchive" -> ControlCommands.Unarchive.class;
      case "pause" -> ControlCommands.Pause.class;
      case "resume" -> ControlCommands.Resume.class;
      case "stop" -> ControlCommands.Stop.class;
      case "retry" -> ControlCommands.Retry.class;
      case "redo" -> ControlCommands.Redo.class;
      case "poison" -> ControlCommands.Poison.class;
      case "disable" -> ControlCommands.Disable.class;
      case "enable" -> ControlCommands.Enable.class;
      case "reload" -> ControlCommands.Reload.class;
      case "cleanup" -> ControlCommands.Cleanup.class;
      case "workers" -> WorkersCommand.class;
      case "exit" -> ExitCommands.Exit.class;
      case "unexit" -> ExitCommands.Unexit.class;
      case "explain" -> ExplainCommand.class;
      default -> throw new IllegalArgumentException(name);
    };
  }

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
