package dev.flipper.launcher.workflow;

import dev.flipper.text.Readable;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.StatusReader;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.engine.WorkflowSummary;
import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.DamagedTokenException;
import dev.flipper.workflow.tokens.Listing;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code flipper workflow status [-w WF [-i ID]] [--json]}. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Shows workflows, the instances of one (-w), or the jobs of one instance (-w -i).",
      "Jobs are shown with status, attempts, last exit code, start, end and log URLs. Archived instances "
          + "are shown too, which the master serves from its archive; --active skips them.",
      "A token that does not parse is shown as a line 'DAMAGED <token>: <reason>' (in JSON, an entry "
          + "with 'token' and 'damaged') instead of failing the command (docs/workflows.md, \"Damaged tokens\").",
      "Exit code 0; 1 if the workflow or instance is not found or the master fails."
    },
    footer = {
      "",
      "Examples:",
      "  flipper workflow status",
      "  flipper workflow status -w etl",
      "  flipper workflow status -w etl -i 1764000000000 --json"
    })
public final class StatusCommand implements Callable<Integer> {
  @Option(
      names = {"-w", "--workflow"},
      paramLabel = "WF",
      description = "A workflow: list its instances.")
  String workflow;

  @Option(
      names = {"-i", "--instance"},
      paramLabel = "ID",
      description = "An instance of -w WF: list its jobs.")
  String instance;

  @Option(names = "--json", description = "Print one JSON document instead of a table.")
  boolean json;

  @Option(
      names = "--active",
      description = "Only active instances: do not read the master's archive.")
  boolean activeOnly;

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (instance != null && workflow == null) {
      throw new CommandLine.ParameterException(spec.commandLine(), "-i ID needs -w WF");
    }
    try (WorkflowClient client = new WorkflowClient(master)) {
      StatusReader status = client.engine.status();
      if (workflow == null) {
        Listing<WorkflowSummary> workflows = status.workflowListing();
        out.println(
            json
                ? StatusJson.workflows(workflows.items(), workflows.damaged())
                : withDamaged(workflowsTable(workflows.items()), workflows.damaged()));
        return 0;
      }
      if (instance == null) {
        Listing<InstanceSummary> active = status.instanceListing(workflow);
        List<DamagedToken> damaged = new ArrayList<>(active.damaged());
        List<InstanceSummary> archived =
            archived(err, client, r -> r.archivedInstances(workflow), List.of());
        if (active.items().isEmpty()
            && archived.isEmpty()
            && damaged.isEmpty()
            && definition(client, workflow, damaged).isEmpty()) {
          err.println("no workflow '" + workflow + "' in the master at " + master.where());
          return 1;
        }
        out.println(
            json
                ? StatusJson.instances(workflow, active.items(), archived, damaged)
                : withDamaged(instancesTable(active.items(), archived), damaged));
        return 0;
      }
      Optional<InstanceDetail> detail;
      try {
        detail = status.instance(workflow, instance);
      } catch (DamagedTokenException e) {
        out.println(
            json ? StatusJson.damagedInstance(workflow, instance, e.damage()) : e.damage().row());
        return 0;
      }
      boolean isArchived = detail.isEmpty();
      if (isArchived) {
        detail =
            archived(err, client, r -> r.archivedInstance(workflow, instance), Optional.empty());
      }
      if (detail.isEmpty()) {
        err.println(
            "no instance " + workflow + "/" + instance + (activeOnly ? " active (--active)" : ""));
        return 1;
      }
      out.println(
          json
              ? StatusJson.instance(detail.get(), isArchived)
              : withDamaged(instanceTable(detail.get(), isArchived), detail.get().damaged()));
      return 0;
    }
  }

  /** The stored definition; a damaged one is added to {@code damaged} (the workflow exists). */
  private static Optional<StoredDefinition> definition(
      WorkflowClient client, String workflow, List<DamagedToken> damaged) {
    try {
      return client.engine.definitions().get(workflow);
    } catch (DamagedTokenException e) {
      damaged.add(e.damage());
      return Optional.empty();
    }
  }

  /** A table followed by one {@code DAMAGED <name>: <reason>} line per damaged token. */
  static String withDamaged(String table, List<DamagedToken> damaged) {
    StringBuilder text = new StringBuilder(table);
    damaged.forEach(d -> text.append('\n').append(d.row()));
    return text.toString();
  }

  /** {@code read} over the master's archived tokens; {@code none} with --active. */
  private <T> T archived(
      PrintWriter err, WorkflowClient client, Function<StatusReader, T> read, T none) {
    return activeOnly ? none : client.readArchive(read, none, err);
  }

  static String workflowsTable(List<WorkflowSummary> workflows) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("WORKFLOW", "VERSION", "STATUS", "RUNNING", "LAST INSTANCE", "START", "END"));
    for (WorkflowSummary w : workflows) {
      Optional<InstanceSummary> last = w.lastInstance();
      rows.add(
          List.of(
              w.name(),
              w.definitionVersion().orElse("(removed)"),
              w.status().map(Enum::name).orElse("-"),
              Integer.toString(w.runningInstances()),
              last.map(InstanceSummary::instance).orElse("-"),
              last.map(i -> time(i.start())).orElse("-"),
              last.flatMap(InstanceSummary::end).map(StatusCommand::time).orElse("-")));
    }
    return table(rows);
  }

  /** Archived instances first (they are the older ones), each group oldest first. */
  static String instancesTable(List<InstanceSummary> active, List<InstanceSummary> archived) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("INSTANCE", "STATUS", "START", "END", "ARCHIVED", "FAILED JOBS"));
    for (List<InstanceSummary> group : List.of(archived, active)) {
      for (InstanceSummary i : group) {
        rows.add(
            List.of(
                i.instance(),
                status(i),
                time(i.start()),
                i.end().map(StatusCommand::time).orElse("-"),
                group == archived ? "yes" : "no",
                i.failedJobs().isEmpty() ? "-" : String.join(",", i.failedJobs())));
      }
    }
    return table(rows);
  }

  static String instanceTable(InstanceDetail detail, boolean archived) {
    InstanceSummary s = detail.summary();
    StringBuilder text = new StringBuilder();
    text.append("workflow ")
        .append(s.workflow())
        .append(", instance ")
        .append(s.instance())
        .append(": ")
        .append(s.shownStatus())
        .append(s.hold().map(h -> " by a " + h.describe()).orElse(""))
        .append(" (start ")
        .append(time(s.start()))
        .append(", end ")
        .append(s.end().map(StatusCommand::time).orElse("-"))
        .append(archived ? ", archived" : "")
        .append(")\n");
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("JOB", "STATUS", "ATTEMPTS", "EXIT", "START", "END", "LOGS"));
    for (JobDetail job : detail.jobs()) {
      Optional<ExecutionDetail> last = job.lastExecution();
      rows.add(
          List.of(
              job.name(),
              job.status().name(),
              job.attempt() + "/" + job.maxAttempts(),
              last.map(StatusCommand::exit).orElse("-"),
              last.map(e -> time(e.start())).orElse("-"),
              last.flatMap(ExecutionDetail::end).map(StatusCommand::time).orElse("-"),
              last.map(
                      e ->
                          e.logs().entrySet().stream()
                              .map(l -> l.getKey() + "=" + l.getValue())
                              .collect(Collectors.joining(" ")))
                  .filter(l -> !l.isEmpty())
                  .orElse("-")));
    }
    return text.append(table(rows)).toString();
  }

  private static String exit(ExecutionDetail e) {
    if (e.exitCode() != null) {
      return e.exitCode().toString();
    }
    return e.endReason() != null ? "(" + e.endReason() + ")" : "-";
  }

  private static String time(Instant instant) {
    return Readable.time(instant);
  }

  /** PAUSED or DRAINED with where the signal is set, else the instance's status. */
  private static String status(InstanceSummary i) {
    return i.hold()
        .map(h -> i.shownStatus() + " (" + String.join(",", h.levels()) + ")")
        .orElse(i.shownStatus().name());
  }

  /** Columns padded to their widest cell; the last column is not padded. */
  static String table(List<List<String>> rows) {
    int columns = rows.get(0).size();
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int c = 0; c < columns; c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        line.append(
            c == columns - 1
                ? row.get(c)
                : String.format("%-" + (widths[c] + 2) + "s", row.get(c)));
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    return text.toString().stripTrailing();
  }
}
