package dev.flipper.workflow.engine;

import dev.flipper.text.DurationText;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.internal.Archiver;
import dev.flipper.workflow.engine.internal.Claimer;
import dev.flipper.workflow.engine.internal.DefinitionStore;
import dev.flipper.workflow.engine.internal.Executions;
import dev.flipper.workflow.engine.internal.InstanceStarter;
import dev.flipper.workflow.engine.internal.JobTransitions;
import dev.flipper.workflow.engine.internal.Notices;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Owners;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The workflow engine: the state model of workflows on a {@link TokenMaster} (in-process or
 * remote). It holds no state of its own: every call reads and writes tokens, so any number of
 * engines in any number of processes may work on one master. Thread-safe.
 *
 * <pre>{@code
 * WorkflowEngine engine = WorkflowEngine.builder(master).build();
 * engine.definitions().apply(List.of(definition));
 * String instance = engine.instances().start("etl");
 * // a worker:
 * engine.claim("worker-1", Duration.ofMinutes(5)).ifPresent(job -> {
 *   engine.start(job, new ExecutionStart(command, host, logUrls));   // durable before the process starts
 *   ... run it, engine.renew(job) every minute or so ...
 *   engine.finish(job, ExecutionResult.exit(exitCode, properties));
 * });
 * }</pre>
 */
public final class WorkflowEngine {
  /** Finished instances stay visible this long before they are archived. */
  public static final Duration DEFAULT_ARCHIVE_DELAY = Duration.ofHours(12);

  private final TokenMaster master;
  private final Clock clock;
  private final Definitions definitions;
  private final Instances instances;
  private final JobTransitions transitions;
  private final Claimer claimer;
  private final Archiver archiver;
  private final StatusReader status;
  private final RunHistory history;
  private final Notices notices;

  private WorkflowEngine(Builder builder) {
    this.master = builder.master;
    this.clock = builder.clock;
    this.definitions = new Definitions(new DefinitionStore(master, clock));
    this.instances = new Instances(definitions, new InstanceStarter(master, clock));
    this.transitions = new JobTransitions(master, clock, builder.archiveDelay);
    this.notices = new Notices(builder.listener);
    this.claimer = new Claimer(master, clock, transitions, notices);
    this.archiver = new Archiver(master, clock, notices);
    this.status = new StatusReader(master, clock);
    this.history = new RunHistory(master, status);
  }

  public static Builder builder(TokenMaster master) {
    return new Builder(master);
  }

  public Definitions definitions() {
    return definitions;
  }

  public Instances instances() {
    return instances;
  }

  /** What the CLI and the UI show: workflows, their instances, an instance's jobs. */
  public StatusReader status() {
    return status;
  }

  /** Every run, active or archived: paged, filtered lists, job histories and the runs grid. */
  public RunHistory history() {
    return history;
  }

  public TokenMaster master() {
    return master;
  }

  /**
   * Claims the highest-priority runnable job of all workflows (one queryAndOwn on {@code
   * /runnable/}) with a lease of {@code lease} from now. Before returning it, settles what needs no
   * process: a disabled job succeeds at once; a job whose previous execution is still open (its
   * worker died or lost the lease) has that execution closed as failed ("lease lost") and the retry
   * rules applied; a job of a drained or aborted instance is held. Empty when nothing is claimable
   * now.
   *
   * @param worker the worker's unique name (the lease owner); not one of the engine's own owners
   */
  public Optional<ClaimedJob> claim(String worker, Duration lease) {
    return claim(worker, lease, Duration.ZERO);
  }

  /**
   * {@link #claim(String, Duration)}, waiting up to {@code wait} for a runnable job when there is
   * none (a waiting {@code queryAndOwn}, see docs/tokens.md): returns as soon as it has claimed
   * one, or empty when the wait is over. The master may shorten the wait or end it early (at
   * shutdown), so callers simply call again; a master that does not wait (Pinball's) answers at
   * once. The lease runs from the start of the call: it ends at now + {@code wait} + {@code lease},
   * so a job claimed at the end of the wait still has a whole lease.
   *
   * @param wait how long to wait when nothing is runnable; zero = answer at once
   */
  public Optional<ClaimedJob> claim(String worker, Duration lease, Duration wait) {
    Objects.requireNonNull(worker, "worker");
    if (wait.isNegative()) {
      throw new IllegalArgumentException(
          "wait is " + DurationText.format(wait) + "; use zero or more");
    }
    if (worker.isEmpty() || Owners.RESERVED.contains(worker)) {
      throw new IllegalArgumentException(
          "worker name '"
              + worker
              + "' is empty or reserved by the engine "
              + Owners.RESERVED
              + "; use a unique name such as host-pid-thread");
    }
    if (lease.toMillis() < 1000) {
      throw new IllegalArgumentException(
          "lease is " + DurationText.format(lease) + "; leases are whole seconds, use at least 1s");
    }
    return claimer
        .claim(worker, lease, wait)
        .map(c -> new ClaimedJob(worker, lease, c.token(), c.data()));
  }

  /**
   * Records the execution as started, durably, before the worker starts the process: a worker that
   * dies after this leaves an open record, which the next claimer closes as failed.
   *
   * @throws LeaseLostException if the worker no longer holds the job: do not run it
   */
  public void start(ClaimedJob job, ExecutionStart start) {
    synchronized (job) {
      requireNotDone(job);
      if (job.started()) {
        throw new IllegalStateException(
            "job " + job.tokenName() + " was already started; finish it first");
      }
      JobData data = job.dataCopy();
      ExecutionData record =
          Executions.open(data, start.command(), job.worker(), start.host(), clock.millis());
      Executions.addLogs(record, start.logs());
      Token held = job.token();
      job.update(transitions.rewrite(held, data, held.owner(), held.expirationTime()), data);
    }
  }

  /**
   * Extends the lease to now + the claim's lease, and reads the signals of the job's instance.
   *
   * @throws LeaseLostException if the worker no longer holds the job: kill its process
   */
  public Renewal renew(ClaimedJob job) {
    return renew(job, Map.of());
  }

  /**
   * Extends the lease and stores the properties seen so far in the open execution record, so the UI
   * shows them while the job runs; reads the signals of the job's instance.
   *
   * @throws LeaseLostException if the worker no longer holds the job: kill its process
   */
  public Renewal renew(ClaimedJob job, Map<String, List<String>> properties) {
    Instant leaseEnd;
    synchronized (job) {
      requireNotDone(job);
      JobData data = job.dataCopy();
      if (!properties.isEmpty() && data.hasOpenExecution()) {
        data.lastExecution().properties.putAll(properties);
      }
      Token held = job.token();
      long expiration = JobTransitions.ceilSeconds(clock.millis() + job.lease().toMillis());
      job.update(
          transitions.rewrite(
              held, data, held.owner(), Math.max(expiration, held.expirationTime())),
          data);
      leaseEnd = job.leaseEnd();
    }
    return new Renewal(
        leaseEnd, signals(job.workflow(), job.instance()).contains(SignalAction.ABORT));
  }

  /**
   * The actions signalled for an instance at any scope (global, its workflow, itself): one query.
   * Workers check it before claiming (a global DRAIN or EXIT) and the control operations use the
   * same rule.
   */
  public Set<SignalAction> signals(String workflow, String instance) {
    return claimer.signals(workflow, instance);
  }

  /** The actions signalled at global scope (a worker checks DRAIN and EXIT before it claims). */
  public Set<SignalAction> globalSignals() {
    return claimer.globalSignals();
  }

  /**
   * Records how the execution ended and moves the job on, each in one atomic modify: on success its
   * children get their events (and become runnable when their inputs are complete); on failure with
   * attempts left it is runnable again now or after its retry delay; with none left it fails for
   * good. Then, if nothing of the instance can run any more, the instance ends (SUCCESS, or FAILURE
   * if a job failed for good).
   *
   * @throws LeaseLostException if the worker no longer holds the job: the result is not recorded
   */
  public Finished finish(ClaimedJob job, ExecutionResult result) {
    synchronized (job) {
      requireNotDone(job);
      if (!job.started()) {
        throw new IllegalStateException(
            "job " + job.tokenName() + " was not started; call start before finish");
      }
      JobData data = job.dataCopy();
      ExecutionData record = data.lastExecution();
      record.endMillis = Math.max(clock.millis(), record.startMillis);
      record.exitCode = result.exitCode();
      record.cleanupExitCode = result.cleanupExitCode();
      record.properties.putAll(result.properties());
      record.endReason = result.endReason();
      Token held = job.token();
      if (result.succeeded()) {
        boolean childRunnable = transitions.succeed(held, data);
        job.markDone();
        // A child made runnable in the same change means the instance goes on: no end check needed.
        Optional<InstanceStatus> ended =
            childRunnable ? Optional.empty() : transitions.endIfDone(data.workflow, data.instance);
        notices.instanceEnded(data, ended);
        return new Finished(Finished.Outcome.SUCCEEDED, ended);
      }
      if (data.attemptsLeft()) {
        job.update(transitions.retry(held, data), data);
        job.markDone();
        // One read when not aborted; an aborted instance ends now instead of when its retry is
        // claimed.
        Optional<InstanceStatus> ended = transitions.endIfDone(data.workflow, data.instance);
        notices.instanceEnded(data, ended);
        return new Finished(Finished.Outcome.RETRYING, ended);
      }
      boolean firstFailure = transitions.failForGood(held, data);
      job.markDone();
      notices.jobFailed(data, firstFailure);
      Optional<InstanceStatus> ended = transitions.endIfDone(data.workflow, data.instance);
      notices.instanceEnded(data, ended);
      return new Finished(Finished.Outcome.FAILED, ended);
    }
  }

  /**
   * Ends the instance if none of its jobs can run any more (a control operation removed the last
   * runnable ones): writes its end record and, after the archive delay, its archive token. Returns
   * the status it ended with, or empty if it is still running or ended already.
   */
  public Optional<InstanceStatus> endIfDone(String workflow, String instance) {
    return transitions.endIfDone(workflow, instance);
  }

  /**
   * Hands a claimed job back without a result (a worker shutting down): it is runnable again at
   * once. A started execution is closed with end reason "handed back" and does not count as an
   * attempt.
   *
   * @throws LeaseLostException if the worker no longer holds the job
   */
  public void release(ClaimedJob job) {
    synchronized (job) {
      requireNotDone(job);
      JobData data = job.dataCopy();
      if (data.hasOpenExecution()) {
        ExecutionData record = data.lastExecution();
        record.endMillis = Math.max(clock.millis(), record.startMillis);
        record.endReason = "handed back";
        data.attempt--;
      }
      job.update(transitions.rewrite(job.token(), data, null, 0), data);
      job.markDone();
    }
  }

  /**
   * Archives the finished instances whose archive delay has passed (each with all its tokens, in
   * one archive call); returns how many. Workers call it now and then; concurrent calls share the
   * work.
   */
  public int archiveDue() {
    return archiver.archiveDue();
  }

  private static void requireNotDone(ClaimedJob job) {
    if (job.isDone()) {
      throw new IllegalStateException(
          "job " + job.tokenName() + " was already finished or released by this worker");
    }
  }

  /** Settings of a {@link WorkflowEngine}. Not thread-safe. */
  public static final class Builder {
    private final TokenMaster master;
    private Clock clock = Clock.systemUTC();
    private Duration archiveDelay = DEFAULT_ARCHIVE_DELAY;
    private EngineListener listener = EngineListener.NONE;

    private Builder(TokenMaster master) {
      this.master = Objects.requireNonNull(master, "master");
    }

    /**
     * Times of records and instances, retry delays, leases. Use the master's clock. Default: system
     * UTC.
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How long a finished instance stays before {@link #archiveDue()} archives it. Default 12h. */
    public Builder archiveDelay(Duration archiveDelay) {
      this.archiveDelay = Objects.requireNonNull(archiveDelay, "archiveDelay");
      return this;
    }

    /**
     * Told of jobs that fail for good and of instance ends, by the call that caused them. Default:
     * nobody.
     */
    public Builder listener(EngineListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public WorkflowEngine build() {
      if (archiveDelay.isNegative()) {
        throw new IllegalArgumentException(
            "archiveDelay is " + DurationText.format(archiveDelay) + "; use 0s or more");
      }
      return new WorkflowEngine(this);
    }
  }
}
