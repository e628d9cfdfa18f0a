package dev.flipper.workflow.ui;

import dev.flipper.workflow.control.ActionPreview;
import dev.flipper.workflow.control.ControlResult;
import dev.flipper.workflow.control.ControlScope;
import dev.flipper.workflow.control.WorkflowControl;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator actions of the UI ({@code POST /actions/<op>} and {@code /api/actions/<op>},
 * docs/ui.md): each one a call of the same {@link WorkflowControl} operation as {@code flipper
 * workflow <op>}. Refusals come out as the control's {@code ControlRefusedException}, bad arguments
 * as {@link UiServer.BadRequestException}. Thread-safe.
 */
final class Actions {
  /**
   * Actions that kill, delete or rerun work: the pages ask for a confirmation before running them.
   */
  static final Set<String> DESTRUCTIVE =
      Set.of("stop", "abort", "poison", "redo", "retry", "unschedule", "exit");

  /**
   * True if the form asks for a confirmation before running {@code operation}: every action that
   * changes an instance (the confirmation lists what will change) and the destructive ones.
   */
  static boolean asksFirst(String operation) {
    return DESTRUCTIVE.contains(operation) || WorkflowControl.PREVIEWS.contains(operation);
  }

  /** Actions of the workers page. */
  static final Set<String> FLEET = Set.of("exit", "unexit");

  /** Actions of the schedules page. */
  static final Set<String> SCHEDULE = Set.of("unschedule", "reschedule");

  /**
   * What an action applies to.
   *
   * @param workflow null for a global drain/abort
   * @param instance null for a workflow-wide drain/abort and for start
   * @param jobs poison, disable, enable: the jobs; redo: exactly one
   * @param execution redo: the execution whose events the job runs with
   * @param generation exit: workers older than this generation exit
   * @param params start: the run's parameters (checked by {@link StartParams})
   */
  record Request(
      String workflow,
      String instance,
      List<String> jobs,
      Integer execution,
      Integer generation,
      Map<String, String> params) {
    Request {
      jobs = jobs == null ? List.of() : List.copyOf(jobs);
      params = params == null ? Map.of() : new LinkedHashMap<>(params);
    }
  }

  private static final Logger log = LoggerFactory.getLogger(Actions.class);
  private final WorkflowControl control;

  Actions(WorkflowControl control) {
    this.control = Objects.requireNonNull(control, "control");
  }

  /** Runs the action for {@code user}; logs who changed what, for the record. */
  ControlResult run(String operation, Request r, String user) {
    ControlResult result = dispatch(operation, r, user);
    log.info(
        "ui action {} by {} on {}: {} change(s) {}",
        operation,
        user,
        result.target(),
        result.changes().size(),
        result.tokens());
    return result;
  }

  private ControlResult dispatch(String operation, Request r, String user) {
    return switch (operation) {
      case "start" -> control.start(workflow(r), user, StartParams.check(r.params()));
      case "stop" -> control.stop(workflow(r), instance(r));
      case "pause" -> control.pause(workflow(r), instance(r));
      case "resume" -> control.resume(workflow(r), instance(r));
      case "retry" -> control.retry(workflow(r), instance(r));
      case "redo" -> control.redo(workflow(r), instance(r), oneJob(r), execution(r));
      case "poison" -> control.poison(workflow(r), instance(r), jobs(r));
      case "disable" -> control.disable(workflow(r), instance(r), jobs(r));
      case "enable" -> control.enable(workflow(r), instance(r), jobs(r));
      case "drain" -> control.drain(scope(r));
      case "undrain" -> control.undrain(scope(r));
      case "abort" -> control.abort(scope(r));
      case "unabort" -> control.unabort(scope(r));
      case "archive" -> control.archive(scope(r));
      case "unschedule" -> control.unschedule(workflow(r));
      case "reschedule" -> control.reschedule(workflow(r));
      case "exit" -> control.exit(generation(r));
      case "unexit" -> control.unexit();
      default ->
          throw new NotFoundException(
              "no action '"
                  + operation
                  + "'; actions: start, stop, pause, resume,"
                  + " retry, redo, poison, disable, enable, drain, undrain, abort, unabort, archive, unschedule,"
                  + " reschedule, exit,"
                  + " unexit");
    };
  }

  /**
   * What the action would change if it ran now, by the control operation's own rules; changes
   * nothing. Offered for the actions of one instance ({@link WorkflowControl#PREVIEWS}).
   */
  ActionPreview preview(String operation, Request r) {
    if (!WorkflowControl.PREVIEWS.contains(operation)) {
      throw new UiServer.BadRequestException(
          "no preview of '"
              + operation
              + "'; previews: "
              + WorkflowControl.PREVIEWS.stream().sorted().toList());
    }
    return control.preview(operation, workflow(r), instance(r), r.jobs());
  }

  /** A result as the JSON API answers it (the record's Optional spelled as a nullable field). */
  static Map<String, Object> json(ControlResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("operation", result.operation());
    json.put("target", result.target());
    json.put("changed", result.changed());
    json.put(
        "changes",
        result.changes().stream()
            .map(
                c -> {
                  Map<String, String> change = new LinkedHashMap<>();
                  change.put("action", c.action());
                  change.put("token", c.token());
                  change.put("detail", c.detail());
                  return change;
                })
            .toList());
    json.put("notes", result.notes());
    json.put("instance", result.instance().orElse(null));
    return json;
  }

  private static ControlScope scope(Request r) {
    return ControlScope.of(blankToNull(r.workflow()), blankToNull(r.instance()));
  }

  private static String workflow(Request r) {
    return required(r.workflow(), "workflow");
  }

  private static String instance(Request r) {
    return required(r.instance(), "instance");
  }

  private static List<String> jobs(Request r) {
    if (r.jobs().isEmpty()) {
      throw new UiServer.BadRequestException("select at least one job ('job')");
    }
    return r.jobs();
  }

  private static String oneJob(Request r) {
    if (r.jobs().size() != 1) {
      throw new UiServer.BadRequestException("redo takes exactly one job ('job'), got " + r.jobs());
    }
    return r.jobs().get(0);
  }

  private static int execution(Request r) {
    if (r.execution() == null) {
      throw new UiServer.BadRequestException(
          "redo needs 'execution': the execution whose events the job reruns");
    }
    return r.execution();
  }

  private static int generation(Request r) {
    if (r.generation() == null) {
      throw new UiServer.BadRequestException(
          "exit needs 'generation': workers older than it finish their jobs and" + " exit");
    }
    return r.generation();
  }

  private static String required(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new UiServer.BadRequestException("'" + name + "' is required");
    }
    return value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
