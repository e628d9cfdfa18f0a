package dev.flipper.launcher.workflow;

import dev.flipper.workflow.definition.WorkflowFileSet;
import dev.flipper.workflow.engine.ApplyResult;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.scheduler.ScheduleChecks;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flipper workflow apply FILE|DIR... [--prune]}: validate every file, then store all in one
 * change.
 */
@Command(
    name = "apply",
    aliases = "reschedule",
    mixinStandardHelpOptions = true,
    description = {
      "Stores workflow definitions in the master, in one atomic change, after checking every file.",
      "A file with any problem changes nothing. Prints what was added, changed and removed, and the "
          + "workflows whose schedule was written. 'reschedule' is Pinball's name for the same command.",
      "Exit code 0 when stored; 1 on a problem in a file or with the master; 2 on usage errors."
    },
    footer = {
      "",
      "Examples:",
      "  flipper workflow apply -c conf/flipper.yaml examples/workflows",
      "  flipper workflow apply --prune workflows/     also remove workflows not in workflows/"
    })
public final class ApplyCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "FILE|DIR",
      arity = "1..*",
      description = "Workflow files or directories of them.")
  List<Path> paths = new ArrayList<>();

  @Option(
      names = "--prune",
      description =
          "Also remove stored workflows that are not among these files (running instances finish).")
  boolean prune;

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    WorkflowFileSet.Result files = WorkflowFileSet.read(paths);
    if (!files.isValid()) {
      files.problems().forEach(err::println);
      err.println(
          "nothing applied: "
              + files.problems().size()
              + (files.problems().size() == 1 ? " problem" : " problems"));
      return 1;
    }
    List<String> scheduleProblems = ScheduleChecks.problems(files.definitions());
    if (!scheduleProblems.isEmpty()) {
      scheduleProblems.forEach(err::println);
      err.println(
          "nothing applied: "
              + scheduleProblems.size()
              + (scheduleProblems.size() == 1 ? " problem" : " problems"));
      return 1;
    }
    try (WorkflowClient client = new WorkflowClient(master)) {
      ApplyResult result = client.engine.definitions().apply(files.definitions(), prune);
      // Schedules in a second modify (the engine's apply writes definitions only): only changed
      // ones are written.
      List<String> scheduled =
          ScheduleTokens.apply(client.master, files.definitions(), Instant.now());
      List<String> unscheduled = new ArrayList<>();
      for (String name : result.removed()) {
        if (ScheduleTokens.unschedule(client.master, name)) {
          unscheduled.add(name);
        }
      }
      for (String name : result.added()) {
        out.println("added:     " + name + " " + version(client, name));
      }
      for (String name : result.changed()) {
        out.println("changed:   " + name + " " + version(client, name));
      }
      for (String name : result.repaired()) {
        out.println(
            "repaired:  "
                + name
                + " "
                + version(client, name)
                + " (the stored text did not match its version; rewritten)");
      }
      for (String name : result.removed()) {
        out.println("removed:   " + name);
      }
      for (String name : result.unchanged()) {
        out.println("unchanged: " + name);
      }
      for (String name : scheduled) {
        out.println("schedule:  " + name);
      }
      for (String name : unscheduled) {
        out.println("unscheduled: " + name);
      }
      out.println(
          result.added().size()
              + " added, "
              + result.changed().size()
              + " changed, "
              + result.removed().size()
              + " removed, "
              + result.unchanged().size()
              + " unchanged"
              + (result.repaired().isEmpty() ? "" : ", " + result.repaired().size() + " repaired"));
      return 0;
    }
  }

  private static String version(WorkflowClient client, String name) {
    return client
        .engine
        .definitions()
        .get(name)
        .map(StoredDefinition::version)
        .map(v -> "(version " + v + ")")
        .orElse("");
  }
}
