package dev.flipper.launcher.workflow;

import dev.flipper.workflow.control.ControlResult;
import dev.flipper.workflow.control.WorkflowControl;
import dev.flipper.workflow.fleet.WorkerLogUrls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The control commands of {@code flipper workflow} (docs/workflows.md, "Control operations"): one
 * small class each, the options and output shared through {@link ControlCommand}.
 */
public final class ControlCommands {
  private ControlCommands() {}

  @Command(
      name = "drain",
      mixinStandardHelpOptions = true,
      description = {
        "Sets DRAIN globally, on a workflow (-w) or an instance (-w -i): nothing new starts there.",
        "Running jobs finish and their results are kept."
      })
  public static final class Drain extends ControlCommand {
    public Drain() {
      super(Needs.SCOPE, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.drain(scope());
    }
  }

  @Command(
      name = "undrain",
      mixinStandardHelpOptions = true,
      description = "Removes DRAIN at that scope; the jobs held meanwhile start.")
  public static final class Undrain extends ControlCommand {
    public Undrain() {
      super(Needs.SCOPE, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.undrain(scope());
    }
  }

  @Command(
      name = "abort",
      mixinStandardHelpOptions = true,
      description = {
        "Sets ABORT globally, on a workflow (-w) or an instance (-w -i): running jobs are killed.",
        "The instances end ABORTED and are archived at once. Asks for confirmation unless --force."
      })
  public static final class Abort extends ControlCommand {
    public Abort() {
      super(Needs.SCOPE, true);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.abort(scope());
    }
  }

  @Command(
      name = "unabort",
      mixinStandardHelpOptions = true,
      description = "Removes ABORT at that scope; instances that have not ended go on.")
  public static final class Unabort extends ControlCommand {
    public Unabort() {
      super(Needs.SCOPE, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.unabort(scope());
    }
  }

  @Command(
      name = "archive",
      mixinStandardHelpOptions = true,
      description = {
        "Sets ARCHIVE at that scope: instances are archived as soon as they end, without the archive delay."
      })
  public static final class Archive extends ControlCommand {
    public Archive() {
      super(Needs.SCOPE, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.archive(scope());
    }
  }

  @Command(
      name = "unarchive",
      mixinStandardHelpOptions = true,
      description = "Removes ARCHIVE at that scope.")
  public static final class Unarchive extends ControlCommand {
    public Unarchive() {
      super(Needs.SCOPE, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.unarchive(scope());
    }
  }

  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description = {
        "Pauses an instance: nothing new starts; running jobs finish and their results are kept."
      })
  public static final class Pause extends ControlCommand {
    public Pause() {
      super(Needs.INSTANCE, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.pause(workflow, instance);
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resumes a paused instance.")
  public static final class Resume extends ControlCommand {
    public Resume() {
      super(Needs.INSTANCE, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.resume(workflow, instance);
    }
  }

  @Command(
      name = "stop",
      mixinStandardHelpOptions = true,
      description = {
        "Deletes every token of an instance without archiving it; running jobs are killed.",
        "Asks for confirmation unless --force."
      })
  public static final class Stop extends ControlCommand {
    public Stop() {
      super(Needs.INSTANCE, true);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.stop(workflow, instance);
    }
  }

  @Command(
      name = "retry",
      mixinStandardHelpOptions = true,
      description = {
        "Runs the failed jobs of an instance again, with the events of their last run.",
        "An archived instance is copied into a new instance (printed). Refused when the workflow's "
            + "maxRunning is reached."
      })
  public static final class Retry extends ControlCommand {
    public Retry() {
      super(Needs.INSTANCE, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.retry(workflow, instance);
    }
  }

  @Command(
      name = "redo",
      mixinStandardHelpOptions = true,
      description = {
        "Runs one job again with the events of its execution N (-e), at its priority.",
        "Asks for confirmation unless --force."
      })
  public static final class Redo extends ControlCommand {
    public Redo() {
      super(Needs.EXECUTION, true);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.redo(workflow, instance, jobs.get(0), execution);
    }
  }

  @Command(
      name = "poison",
      mixinStandardHelpOptions = true,
      description = {
        "Runs the jobs (-j) and everything downstream of them again in an instance.",
        "Of an archived instance, or without -i, a new instance (printed) of its graph or of the stored definition "
            + "runs only those jobs. Asks for confirmation unless --force."
      })
  public static final class Poison extends ControlCommand {
    public Poison() {
      super(Needs.WORKFLOW_JOBS, true);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return instance == null
          ? control.poison(workflow, jobs)
          : control.poison(workflow, instance, jobs);
    }
  }

  @Command(
      name = "disable",
      mixinStandardHelpOptions = true,
      description = {
        "Disables jobs (-j) of an instance: they succeed without running once their inputs are complete."
      })
  public static final class Disable extends ControlCommand {
    public Disable() {
      super(Needs.JOBS, true);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.disable(workflow, instance, jobs);
    }
  }

  @Command(
      name = "enable",
      mixinStandardHelpOptions = true,
      description = "Enables disabled jobs (-j) again.")
  public static final class Enable extends ControlCommand {
    public Enable() {
      super(Needs.JOBS, false);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.enable(workflow, instance, jobs);
    }
  }

  @Command(
      name = "reload",
      mixinStandardHelpOptions = true,
      description = {
        "Copies commands, attempts, time-outs and priorities from the stored definition into an instance.",
        "All its jobs, or those given with -j. Asks for confirmation unless --force."
      })
  public static final class Reload extends ControlCommand {
    public Reload() {
      super(Needs.INSTANCE, true);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      return control.reload(workflow, instance, jobs);
    }
  }

  @Command(
      name = "cleanup",
      mixinStandardHelpOptions = true,
      description = {
        "Deletes old archived instances and lists their log URLs.",
        "Only instances that ended more than --age ago (default 28d, at least 7d). Asks for confirmation "
            + "unless --force."
      })
  public static final class Cleanup extends ControlCommand {
    @Option(
        names = "--age",
        paramLabel = "DAYS",
        defaultValue = "28",
        description = "Age in days (default ${DEFAULT-VALUE}; at least 7).")
    int ageDays;

    public Cleanup() {
      super(Needs.NOTHING, true);
    }

    @Override
    ControlResult run(WorkflowControl control) {
      ControlResult result = control.cleanup(Duration.ofDays(ageDays));
      List<String> notes = new ArrayList<>(result.notes());
      notes.addAll(
          new WorkerLogCleanup(
                  master.loadConfig().security().commandIdentity().orElse(null),
                  new WorkerLogUrls(client.master)::fetchable)
              .delete(result.logUrls()));
      return new ControlResult(
          result.operation(),
          result.target(),
          result.changes(),
          notes,
          result.instance(),
          result.logUrls());
    }
  }
}
