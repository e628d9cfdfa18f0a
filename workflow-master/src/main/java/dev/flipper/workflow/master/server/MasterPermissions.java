package dev.flipper.workflow.master.server;

import dev.flipper.tls.Role;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What each certificate role may change on the master (docs/security.md): every role reads; the
 * workers and the scheduler change only the token areas their code writes; the UI and operators
 * change everything but deleting definitions, archived tokens and recorded runs, which only an
 * admin may. The areas are workflow-engine's {@code TokenLayout} and {@code ScheduleTokens}
 * prefixes (this module does not depend on the engine; a test checks they agree). Stateless.
 */
final class MasterPermissions {
  static final String DEFINITIONS = "/definition/";
  static final String WORKFLOWS = "/workflow/";
  static final String RUNNABLE = "/runnable/";
  static final String ARCHIVE = "/archive/";
  static final String SIGNALS = "/signal/";
  static final String INSTANCE_SIGNALS = "/signal/instance/";
  static final String WORKERS = "/worker/";
  static final String SCHEDULES = "/schedule/";

  /** A change a call makes to a token name (or, for claims and archive deletes, a prefix). */
  enum Change {
    WRITE("write"),
    DELETE("delete"),
    ARCHIVE("archive"),
    CLAIM("claim tokens under"),
    DELETE_ARCHIVED("delete archived tokens under"),
    DELETE_RUN("delete the recorded run of");

    private final String verb;

    Change(String verb) {
      this.verb = verb;
    }
  }

  private static final List<String> JOB_AREAS = List.of(WORKFLOWS, RUNNABLE, ARCHIVE);

  /**
   * Where the workers and the scheduler may change tokens. The workers archive an instance's own
   * signals with it; the scheduler writes ABORT signals (schedules that abort running instances).
   */
  private static final Map<Role, Map<Change, List<String>>> AREAS =
      Map.of(
          Role.WORKER,
          Map.of(
              Change.WRITE, areas(WORKERS),
              Change.DELETE, areas(WORKERS),
              Change.ARCHIVE, areas(INSTANCE_SIGNALS),
              Change.CLAIM, areas()),
          Role.SCHEDULER,
          Map.of(
              Change.WRITE, areas(SCHEDULES, SIGNALS),
              Change.DELETE, areas(SCHEDULES, SIGNALS),
              Change.ARCHIVE, areas(SIGNALS),
              Change.CLAIM, areas(SCHEDULES)));

  private MasterPermissions() {}

  /**
   * The name a call about an instance's recorded run is checked by: the prefix of the instance's
   * tokens ({@code TokenLayout.instancePrefix}), so whoever may archive those may record its run.
   */
  static String runName(String workflow, String instance) {
    return WORKFLOWS + workflow + "/" + instance + "/";
  }

  private static List<String> areas(String... more) {
    return Stream.concat(JOB_AREAS.stream(), Arrays.stream(more)).toList();
  }

  /**
   * Null if {@code role} may make {@code change} to {@code name}; else why not, e.g. {@code role
   * worker may not write /definition/etl}.
   */
  static String refusal(Role role, Change change, String name) {
    return allowed(role, change, name)
        ? null
        : "role " + role.label() + " may not " + change.verb + " " + name;
  }

  private static boolean allowed(Role role, Change change, String name) {
    return switch (role) {
      case ADMIN -> true;
      case UI, OPERATOR ->
          change != Change.DELETE_ARCHIVED
              && change != Change.DELETE_RUN
              && !(change == Change.DELETE && name.startsWith(DEFINITIONS));
      case WORKER, SCHEDULER ->
          AREAS.get(role).getOrDefault(change, List.of()).stream().anyMatch(name::startsWith);
      case MASTER, QUEUE, APP -> false;
    };
  }
}
