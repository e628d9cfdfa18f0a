package dev.flipper.workflow.control;

import dev.flipper.workflow.engine.WorkflowEngine;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The operators' control of running workflows (docs/workflows.md, "Control operations": Pinball's
 * with its defects fixed): what {@code flipper workflow drain|pause|retry|...} and the UI call.
 * Every operation is one atomic change in the master, retried whole when another writer got there
 * first, returns what it changed as a {@link ControlResult}, and changes nothing when called a
 * second time. Operations that find the state wrong for them throw {@link ControlRefusedException};
 * bad arguments throw {@link IllegalArgumentException}. Both change nothing. Thread-safe; holds no
 * state.
 *
 * <pre>{@code
 * WorkflowControl control = WorkflowControl.builder(engine).build();
 * control.pause("etl", instance);        // running jobs finish; nothing new starts
 * control.resume("etl", instance);
 * }</pre>
 */
public final class WorkflowControl {
  /** The operations {@link #preview} previews: those of one instance. */
  public static final Set<String> PREVIEWS = PreviewOperation.OPERATIONS;

  private final DrainOperations drain;
  private final AbortOperations abort;
  private final ArchiveOperations archive;
  private final PauseOperations pause;
  private final StopOperation stop;
  private final StartOperation start;
  private final RetryOperation retry;
  private final RedoOperation redo;
  private final PoisonOperation poison;
  private final DisableOperation disable;
  private final ReloadOperation reload;
  private final CleanupOperation cleanup;
  private final ScheduleOperations schedules;
  private final ExitOperations exits;
  private final PreviewOperation preview;

  private WorkflowControl(Builder builder) {
    WorkflowEngine engine = builder.engine;
    Clock clock = builder.clock;
    SignalSwitch signals = new SignalSwitch(engine.master(), clock);
    this.drain = new DrainOperations(engine, signals);
    this.abort = new AbortOperations(engine, signals);
    this.archive = new ArchiveOperations(engine, signals, clock);
    this.pause = new PauseOperations(engine, signals);
    this.stop = new StopOperation(engine.master());
    this.start = new StartOperation(engine);
    ArchivedTokens archived = ArchivedTokens.of(engine.master()); // the master serves its archive
    this.retry = new RetryOperation(engine, clock, archived);
    this.redo = new RedoOperation(engine);
    this.poison = new PoisonOperation(engine, clock, archived);
    this.disable = new DisableOperation(engine, clock);
    this.reload = new ReloadOperation(engine, clock);
    this.cleanup = new CleanupOperation(archived, clock);
    this.schedules = new ScheduleOperations(engine, clock);
    this.exits = new ExitOperations(engine.master(), clock);
    this.preview = new PreviewOperation(engine);
  }

  public static Builder builder(WorkflowEngine engine) {
    return new Builder(engine);
  }

  /**
   * Sets DRAIN at the scope: nothing new starts in the covered instances; running jobs finish,
   * results kept.
   */
  public ControlResult drain(ControlScope scope) {
    return drain.drain(scope);
  }

  /** Removes DRAIN at the scope and releases the jobs held meanwhile. */
  public ControlResult undrain(ControlScope scope) {
    return drain.undrain(scope);
  }

  /**
   * Sets ABORT at the scope: running jobs are killed; the instances end ABORTED and are archived at
   * once.
   */
  public ControlResult abort(ControlScope scope) {
    return abort.abort(scope);
  }

  /** Removes ABORT at the scope; instances that have not ended go on. */
  public ControlResult unabort(ControlScope scope) {
    return abort.unabort(scope);
  }

  /**
   * Sets ARCHIVE at the scope: the covered instances are archived as soon as they end, without the
   * delay.
   */
  public ControlResult archive(ControlScope scope) {
    return archive.archive(scope);
  }

  public ControlResult unarchive(ControlScope scope) {
    return archive.unarchive(scope);
  }

  /** Nothing new starts in the instance; its running jobs finish and their results are kept. */
  public ControlResult pause(String workflow, String instance) {
    return pause.pause(workflow, instance);
  }

  public ControlResult resume(String workflow, String instance) {
    return pause.resume(workflow, instance);
  }

  /** Deletes the instance, unarchived; running jobs are killed when their workers next renew. */
  public ControlResult stop(String workflow, String instance) {
    return stop.stop(workflow, instance);
  }

  /**
   * Starts an instance, within the workflow's maxRunning if it has a schedule; the result names it.
   */
  public ControlResult start(String workflow, String startedBy, Map<String, String> params) {
    return start.start(workflow, startedBy, params);
  }

  /**
   * Runs the failed jobs again (of an ABORTED instance not archived yet: the aborted ones); an
   * archived instance is copied into a new one (see the result's instance).
   */
  public ControlResult retry(String workflow, String instance) {
    return retry.retry(workflow, instance);
  }

  /** Runs a job again with the events of its execution {@code execution}, at its priority. */
  public ControlResult redo(String workflow, String instance, String job, int execution) {
    return redo.redo(workflow, instance, job, execution);
  }

  /**
   * Runs the jobs and everything downstream of them again; of an archived instance, in a new
   * instance of its graph where only those run (see the result's instance).
   */
  public ControlResult poison(String workflow, String instance, List<String> jobs) {
    return poison.poison(workflow, instance, jobs);
  }

  /**
   * Runs the jobs and everything downstream of them in a new instance of the stored definition,
   * nothing else.
   */
  public ControlResult poison(String workflow, List<String> jobs) {
    return poison.poisonNew(workflow, jobs);
  }

  public ControlResult disable(String workflow, String instance, List<String> jobs) {
    return disable.set(workflow, instance, jobs, true);
  }

  public ControlResult enable(String workflow, String instance, List<String> jobs) {
    return disable.set(workflow, instance, jobs, false);
  }

  /**
   * Copies commands, attempts, time-outs and priorities from the stored definition; all jobs if
   * none given.
   */
  public ControlResult reload(String workflow, String instance, List<String> jobs) {
    return reload.reload(workflow, instance, jobs);
  }

  /**
   * Deletes archived instances that ended more than {@code age} ago (at least 7 days); the result
   * lists the log URLs of their executions.
   */
  public ControlResult cleanup(Duration age) {
    return cleanup.cleanup(age);
  }

  /**
   * Deletes the workflow's schedule token: schedulers start no more instances; its instances are
   * untouched.
   */
  public ControlResult unschedule(String workflow) {
    return schedules.unschedule(workflow);
  }

  /**
   * Writes the workflow's schedule token from its stored definition, as {@code apply} does (after
   * an {@link #unschedule}); refused if the workflow has no stored definition or it has no
   * schedule.
   */
  public ControlResult reschedule(String workflow) {
    return schedules.reschedule(workflow);
  }

  /**
   * Sets the global EXIT signal: workers below {@code generation} finish their jobs and exit
   * (docs/operations.md, "Upgrading workers"); the notes say how many alive workers retire and how
   * many keep working.
   */
  public ControlResult exit(int generation) {
    return exits.exit(generation);
  }

  /** Removes the global EXIT signal. */
  public ControlResult unexit() {
    return exits.unexit();
  }

  /**
   * What {@code operation} (one of {@link #PREVIEWS}) of the instance would change if it ran now,
   * by the operation's own rules; writes nothing. Refusals the operation would make are notes.
   */
  public ActionPreview preview(
      String operation, String workflow, String instance, List<String> jobs) {
    return preview.preview(operation, workflow, instance, jobs);
  }

  /** Settings of a {@link WorkflowControl}. Not thread-safe. */
  public static final class Builder {
    private final WorkflowEngine engine;
    private Clock clock = Clock.systemUTC();

    private Builder(WorkflowEngine engine) {
      this.engine = Objects.requireNonNull(engine, "engine");
    }

    /** The master's clock. Default: system UTC. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public WorkflowControl build() {
      return new WorkflowControl(this);
    }
  }
}
