package dev.flipper.launcher.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.flipper.workflow.control.ControlResult;
import dev.flipper.workflow.control.ControlScope;
import dev.flipper.workflow.control.WorkflowControl;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The shared part of the control commands ({@code flipper workflow drain|pause|retry|...}, see
 * {@link ControlCommands}): the master options, {@code -w -i -j -e}, {@code --force}, {@code
 * --json}, the confirmation of destructive operations and the output of the {@link ControlResult}.
 * A subclass only says what it needs and which {@link WorkflowControl} call it makes. Exit code 0
 * when done (changed or not), 1 when refused or on a problem with the master, 2 on usage errors.
 */
abstract class ControlCommand implements Callable<Integer> {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Option(
      names = {"-w", "--workflow"},
      paramLabel = "WF",
      description = "The workflow.")
  String workflow;

  @Option(
      names = {"-i", "--instance"},
      paramLabel = "ID",
      description = "The instance.")
  String instance;

  @Option(
      names = {"-j", "--job"},
      paramLabel = "JOB",
      split = ",",
      description = "A job; repeatable or comma-separated.")
  List<String> jobs = new ArrayList<>();

  @Option(
      names = {"-e", "--execution"},
      paramLabel = "N",
      description = "An execution number of the job (redo).")
  Integer execution;

  @Option(
      names = "--force",
      description = "Do not ask for confirmation (needed without a terminal).")
  boolean force;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  /** What the operation needs of -w -i -j -e; checked before anything else. */
  enum Needs {
    SCOPE,
    WORKFLOW,
    INSTANCE,
    JOBS,
    WORKFLOW_JOBS,
    EXECUTION,
    NOTHING
  }

  private final Needs needs;
  private final boolean destructive;

  /**
   * @param destructive ask for confirmation unless --force
   */
  ControlCommand(Needs needs, boolean destructive) {
    this.needs = needs;
    this.destructive = destructive;
  }

  /** The operation. */
  /** The master's client while {@link #run} runs. */
  WorkflowClient client;

  abstract ControlResult run(WorkflowControl control);

  @Override
  public Integer call() {
    String name = spec.name();
    check(needs);
    if (destructive && !force && !confirmed(name)) {
      return 1;
    }
    try (WorkflowClient client = new WorkflowClient(master)) {
      this.client = client;
      print(
          run(
              WorkflowControl.builder(client.engine)
                  .build())); // the master serves archived tokens too
      return 0;
    }
  }

  private boolean confirmed(String name) {
    PrintWriter err = spec.commandLine().getErr();
    if (System.console() == null || System.getenv("CI") != null) {
      err.println(
          "flipper: "
              + name
              + " changes running workflows and needs a confirmation, but there is no"
              + " terminal to ask; add --force to run it without asking");
      return false;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(name + " " + target() + "? [y/N] ");
    out.flush();
    try {
      String answer =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      if (answer != null && (answer.equalsIgnoreCase("y") || answer.equalsIgnoreCase("yes"))) {
        return true;
      }
    } catch (IOException e) {
      // No answer: not confirmed.
    }
    err.println("flipper: " + name + " not confirmed; nothing changed");
    return false;
  }

  private String target() {
    String scope = ControlScope.of(workflow, instance).toString();
    return jobs.isEmpty() ? scope : scope + " jobs " + jobs;
  }

  private void print(ControlResult result) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("operation", result.operation());
      m.put("target", result.target());
      m.put("changed", result.changed());
      m.put("instance", result.instance().orElse(null));
      List<Object> changes = new ArrayList<>();
      for (ControlResult.Change change : result.changes()) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("action", change.action());
        c.put("token", change.token());
        c.put("detail", change.detail());
        changes.add(c);
      }
      m.put("changes", changes);
      m.put("notes", result.notes());
      m.put("logUrls", result.logUrls());
      try {
        out.println(JSON.writeValueAsString(m));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("a map of strings always serializes", e);
      }
      return;
    }
    out.println(
        result.operation()
            + " "
            + result.target()
            + ": "
            + (result.changed()
                ? result.changes().size() + (result.changes().size() == 1 ? " change" : " changes")
                : "nothing changed"));
    result.instance().ifPresent(id -> out.println("  instance " + id));
    result.changes().forEach(change -> out.println("  " + change));
    result.notes().forEach(note -> out.println("  note: " + note));
    result.logUrls().forEach(url -> out.println("  log " + url));
  }

  ControlScope scope() {
    return ControlScope.of(workflow, instance);
  }

  private void check(Needs needs) {
    String usage =
        switch (needs) {
          case SCOPE, NOTHING -> null;
          case WORKFLOW -> workflow == null ? "-w WF" : null;
          case INSTANCE -> workflow == null || instance == null ? "-w WF -i ID" : null;
          case JOBS ->
              workflow == null || instance == null || jobs.isEmpty()
                  ? "-w WF -i ID -j JOB[,JOB...]"
                  : null;
          case WORKFLOW_JOBS ->
              workflow == null || jobs.isEmpty() ? "-w WF [-i ID] -j JOB[,JOB...]" : null;
          case EXECUTION ->
              workflow == null || instance == null || jobs.size() != 1 || execution == null
                  ? "-w WF -i ID -j JOB -e N (one job, one execution number)"
                  : null;
        };
    if (usage != null) {
      throw new CommandLine.ParameterException(spec.commandLine(), spec.name() + " needs " + usage);
    }
    if (needs == Needs.SCOPE && instance != null && workflow == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), spec.name() + ": -i needs -w WF");
    }
  }
}
