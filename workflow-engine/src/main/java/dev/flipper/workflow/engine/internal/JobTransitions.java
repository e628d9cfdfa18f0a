package dev.flipper.workflow.engine.internal;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.LeaseLostException;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.tokens.ArchiveData;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.EventData;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The moves of a runnable job, each one atomic modify (docs/workflows.md, "Job states"):
 *
 * <ul>
 *   <li>{@link #succeed}: the job goes back to waiting with its closed record; each child gets the
 *       event for this input, or, when that completes its inputs, becomes runnable in the same
 *       modify, consuming one event per input.
 *   <li>{@link #retry}: the job stays runnable; its lease becomes the retry delay.
 *   <li>{@link #failForGood}: the job is parked in waiting without events downstream and the
 *       instance record lists it as failed.
 *   <li>{@link #endIfDone}: after any of them, the instance ends when nothing under its runnable
 *       prefix is left.
 * </ul>
 *
 * <p>Steps that read other tokens first retry on a version conflict after re-reading; a conflict on
 * the job's own token means the caller no longer holds it ({@link LeaseLostException}).
 * Thread-safe.
 */
public final class JobTransitions {
  private static final Logger LOG = LoggerFactory.getLogger(JobTransitions.class);

  /** Above this many children, a success reads all waiting jobs of the instance in one range. */
  private static final int WIDE_FAN_OUT = 16;

  /** Striped per child job; see {@link #locksOf}. */
  private final ReentrantLock[] childLocks = new ReentrantLock[64];

  private final TokenMaster master;
  private final Clock clock;
  private final Duration archiveDelay;

  public JobTransitions(TokenMaster master, Clock clock, Duration archiveDelay) {
    this.master = master;
    this.clock = clock;
    this.archiveDelay = archiveDelay;
    for (int i = 0; i < childLocks.length; i++) {
      childLocks[i] = new ReentrantLock();
    }
  }

  /**
   * Writes the held runnable token with new data and lease; the new token. If the master cannot say
   * whether the write applied (a connection broken during the call, the client's "outcome
   * unknown"), the token is read back: our data on it means it applied.
   */
  public Token rewrite(Token held, JobData data, String owner, long expirationTime) {
    Token wanted =
        new Token(
            held.version(), held.name(), owner, expirationTime, held.priority(), Json.write(data));
    try {
      return master.modify(ModifyParams.updating(wanted)).get(0);
    } catch (TokenException e) {
      if (ConflictRetry.isConflict(e)) {
        throw leaseLost(held, e);
      }
      if (e.errorCode() == TokenErrorCode.UNKNOWN) {
        Optional<Token> current = readExact(held.name());
        if (current.isPresent()
            && current.get().version() != held.version()
            && wanted.data().equals(current.get().data())
            && Objects.equals(owner, current.get().owner())) {
          return current.get();
        }
      }
      throw e;
    }
  }

  /**
   * The job succeeded (its last record is closed with exit 0). Returns true if a child became
   * runnable in the same change: then the instance cannot be done, and the end check can be
   * skipped.
   */
  public boolean succeed(Token held, JobData data) {
    ExecutionData last = data.lastExecution();
    Map<String, String> attributes = eventAttributes(last.properties);
    String eventName = "e" + last.execution;
    String creator = data.name + "#" + last.execution;
    JobData parked = Json.copy(data, JobData.class);
    parked.events.clear();
    parked.readyInputs =
        null; // events may have come while it ran: the next parent's success reads them
    // If the outcome is unknown but the job is parked with this execution, the success was written;
    // whether a
    // child became runnable is then unknown, so report false and let the caller check for the end.
    List<ReentrantLock> locks = locksOf(parked);
    locks.forEach(ReentrantLock::lock);
    try {
      return holding(
          held,
          "success of " + held.name(),
          () -> succeedOnce(held, parked, eventName, creator, attributes),
          () -> parkedWith(parked) ? Optional.of(false) : Optional.empty());
    } finally {
      locks.forEach(ReentrantLock::unlock);
    }
  }

  /**
   * The locks of this job's children, in stripe order (so two successes never wait for each other
   * in a cycle). The parents of a join all rewrite its waiting token; the slots of one worker
   * process share an engine, so taking turns here instead of at the master saves most of the
   * version conflicts (each a failed modify, a read of the held token, a re-read and a second
   * modify). Writers in other processes still conflict and retry: the master's version checks stay
   * what makes the hop safe.
   */
  private List<ReentrantLock> locksOf(JobData job) {
    java.util.TreeSet<Integer> stripes = new java.util.TreeSet<>();
    for (String child : job.outputs) {
      String name = TokenLayout.waiting(job.workflow, job.instance, child);
      stripes.add(Math.floorMod(name.hashCode(), childLocks.length));
    }
    List<ReentrantLock> locks = new ArrayList<>();
    stripes.forEach(i -> locks.add(childLocks[i]));
    return locks;
  }

  private boolean succeedOnce(
      Token held,
      JobData parked,
      String eventName,
      String creator,
      Map<String, String> attributes) {
    String wf = parked.workflow;
    String inst = parked.instance;
    String self = parked.name;
    Map<String, Token> waitingChildren = readWaiting(wf, inst, parked.outputs);
    EventData event = EventData.of(self, creator, attributes);
    // First pass: which children's events must be read. Only a child whose recorded inputs this
    // success
    // completes (with inputs besides this one), or whose record is missing, costs a read of its
    // events.
    Map<String, JobData> childData = new LinkedHashMap<>();
    List<String> readEvents = new ArrayList<>();
    for (String child : parked.outputs) {
      Token waiting = waitingChildren.get(child);
      if (waiting == null) {
        continue;
      }
      JobData data = Json.read(waiting, JobData.class);
      childData.put(child, data);
      boolean othersNeeded = data.inputs.stream().anyMatch(input -> !input.equals(self));
      if (data.readyInputs == null
          || (othersNeeded && completes(data.inputs, data.readyInputs, self))) {
        readEvents.add(child);
      }
    }
    Map<String, Map<String, List<Token>>> eventsOf = new LinkedHashMap<>();
    if (!readEvents.isEmpty()) {
      List<List<Token>> read =
          master.query(
              readEvents.stream()
                  .map(child -> Query.prefix(TokenLayout.inputsPrefix(wf, inst, child)))
                  .toList());
      for (int i = 0; i < readEvents.size(); i++) {
        String child = readEvents.get(i);
        eventsOf.put(child, byInput(read.get(i), TokenLayout.inputsPrefix(wf, inst, child)));
      }
    }

    List<Token> updates = new ArrayList<>();
    List<Token> deletes = new ArrayList<>();
    boolean madeRunnable = false;
    deletes.add(held);
    updates.add(
        new Token(
            0, TokenLayout.waiting(wf, inst, self), null, 0, held.priority(), Json.write(parked)));
    for (String child : parked.outputs) {
      Token eventToken =
          Token.of(
              TokenLayout.event(wf, inst, child, self, eventName), Json.write(eventData(event)));
      Token waiting = waitingChildren.get(child);
      if (waiting == null) {
        // The child is runnable or running (a re-run): the event waits for its next run.
        updates.add(eventToken);
        continue;
      }
      JobData data = childData.get(child);
      Map<String, List<Token>> byInput = eventsOf.get(child);
      List<String> ready = new ArrayList<>();
      if (byInput != null) {
        // The events are the truth; the record is rebuilt from them (it may be missing or, edited
        // by hand, wrong).
        data.inputs.stream()
            .filter(input -> !byInput.getOrDefault(input, List.of()).isEmpty())
            .forEach(ready::add);
      } else {
        ready.addAll(data.readyInputs);
      }
      if (!ready.contains(self)) {
        ready.add(self);
      }
      if (ready.containsAll(data.inputs)) {
        List<EventData> consumed = new ArrayList<>();
        for (String input : data.inputs) {
          if (input.equals(self)) {
            consumed.add(event);
            continue;
          }
          // Oldest first: versions grow in commit order.
          Token oldest =
              byInput.get(input).stream()
                  .min(Comparator.comparingLong(Token::version))
                  .orElseThrow();
          deletes.add(oldest);
          EventData stored = Json.read(oldest, EventData.class);
          stored.input = input;
          consumed.add(stored);
        }
        data.events = consumed;
        data.attempt = 0;
        data.readyInputs =
            null; // recorded on waiting tokens only; surplus events are counted when it parks
        madeRunnable = true;
        deletes.add(waiting);
        updates.add(
            new Token(
                0,
                TokenLayout.runnable(wf, inst, child),
                null,
                0,
                waiting.priority(),
                Json.write(data)));
      } else {
        updates.add(eventToken);
        // Rewritten with this input recorded, version-checked: two parents delivering to this child
        // at once
        // conflict, and the loser re-reads and sees the winner's input. So the success that
        // completes the
        // inputs always knows it does, and the join becomes runnable exactly once.
        data.readyInputs = ready;
        updates.add(waiting.withData(Json.write(data)));
      }
    }
    master.modify(new ModifyParams(updates, deletes));
    return madeRunnable;
  }

  /** True if the inputs recorded as ready plus {@code self} are all of {@code inputs}. */
  private static boolean completes(List<String> inputs, List<String> ready, String self) {
    for (String input : inputs) {
      if (!input.equals(self) && !ready.contains(input)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The waiting tokens of these jobs, by job name (a job that is runnable has none). A prefix query
   * per job also returns the jobs whose names extend it ({@code p1} gives {@code p10}...), so a job
   * with many children reads the instance's waiting jobs in one range instead of many overlapping
   * ones.
   */
  private Map<String, Token> readWaiting(String wf, String inst, List<String> jobs) {
    if (jobs.isEmpty()) {
      return Map.of();
    }
    List<Query> queries =
        jobs.size() > WIDE_FAN_OUT
            ? List.of(Query.prefix(TokenLayout.waitingPrefix(wf, inst)))
            : jobs.stream().map(job -> Query.prefix(TokenLayout.waiting(wf, inst, job))).toList();
    Map<String, Token> byName = new java.util.HashMap<>();
    for (List<Token> tokens : master.query(queries)) {
      for (Token token : tokens) {
        byName.put(token.name(), token);
      }
    }
    Map<String, Token> waiting = new LinkedHashMap<>();
    for (String job : jobs) {
      Token token = byName.get(TokenLayout.waiting(wf, inst, job));
      if (token != null) {
        waiting.put(job, token);
      }
    }
    return waiting;
  }

  /**
   * The job failed with attempts left: runnable again at once, or when its retry delay has passed.
   */
  public Token retry(Token held, JobData data) {
    if (data.retryDelayMillis <= 0) {
      return rewrite(held, data, null, 0);
    }
    return rewrite(
        held, data, Owners.RETRY_DELAY, ceilSeconds(clock.millis() + data.retryDelayMillis));
  }

  /**
   * The job failed with no attempt left: parked in waiting, recorded as failed in the instance
   * record. Returns true if it is the first job of its instance to fail for good (Pinball then
   * mails the workflow's emails too).
   */
  public boolean failForGood(Token held, JobData data) {
    JobData parked = Json.copy(data, JobData.class);
    parked.events.clear();
    parked.readyInputs =
        null; // events may have come while it ran: the next parent's success reads them
    String wf = data.workflow;
    String inst = data.instance;
    return holding(
        held,
        "failure of " + held.name(),
        () -> {
          List<Token> updates = new ArrayList<>();
          updates.add(
              new Token(
                  0,
                  TokenLayout.waiting(wf, inst, data.name),
                  null,
                  0,
                  held.priority(),
                  Json.write(parked)));
          boolean first = true;
          Optional<Token> record = readExact(TokenLayout.instanceRecord(wf, inst));
          if (record.isPresent()) {
            InstanceData instance = Json.read(record.get(), InstanceData.class);
            first = instance.failedJobs.isEmpty() || instance.failedJobs.equals(List.of(data.name));
            if (!instance.failedJobs.contains(data.name)) {
              instance.failedJobs.add(data.name);
            }
            updates.add(record.get().withData(Json.write(instance)));
          }
          master.modify(new ModifyParams(updates, List.of(held)));
          return first;
        },
        () ->
            parkedWith(parked) ? Optional.of(firstFailed(wf, inst, data.name)) : Optional.empty());
  }

  /** True if {@code job} is the first job the instance record lists as failed. */
  private boolean firstFailed(String wf, String inst, String job) {
    return readExact(TokenLayout.instanceRecord(wf, inst))
        .map(t -> Json.read(t, InstanceData.class).failedJobs)
        .map(failed -> !failed.isEmpty() && failed.get(0).equals(job))
        .orElse(true);
  }

  /**
   * Ends the instance if nothing under its runnable prefix is left: SUCCESS, or FAILURE when a job
   * failed for good. An instance with an ABORT signal (at any scope) ends as ABORTED as soon as no
   * worker holds one of its jobs; its remaining runnable jobs are held ({@code aborted}) in the
   * same change. An aborted instance, or one with an ARCHIVE signal, is due for archiving at once
   * instead of after the archive delay. The instance record is updated with a version check, so of
   * several callers exactly one ends it; that one also writes the archive token. Present only for
   * the call that ended the instance.
   */
  public Optional<InstanceStatus> endIfDone(String wf, String inst) {
    Optional<Ended> ended =
        ConflictRetry.run(
            "end of instance " + wf + "/" + inst,
            () -> {
              // The signals come in the same read: no extra round trip.
              List<Query> queries =
                  new ArrayList<>(
                      List.of(
                          Query.top(TokenLayout.runnablePrefix(wf, inst), 1),
                          Query.prefix(TokenLayout.instanceRecord(wf, inst))));
              queries.addAll(signalQueries(wf, inst));
              List<List<Token>> read = master.query(queries);
              Set<SignalAction> signals = Claimer.actions(read.subList(2, 5));
              boolean aborted = signals.contains(SignalAction.ABORT);
              List<Token> holds = new ArrayList<>();
              if (!read.get(0).isEmpty()) {
                if (!aborted) {
                  return Optional.<Ended>empty();
                }
                long nowSeconds = clock.instant().getEpochSecond();
                for (Token runnable :
                    master.query(Query.prefix(TokenLayout.runnablePrefix(wf, inst)))) {
                  if (!Owners.isHold(runnable.owner()) && runnable.isOwnedAt(nowSeconds)) {
                    return Optional
                        .<Ended>
                            empty(); // a worker runs it: it is killed, its finish ends the instance
                  }
                  if (!Owners.ABORTED.equals(runnable.owner())) {
                    holds.add(runnable.withOwner(Owners.ABORTED, Owners.FOREVER));
                  }
                }
              }
              String recordName = TokenLayout.instanceRecord(wf, inst);
              Token record =
                  read.get(1).stream()
                      .filter(t -> t.name().equals(recordName))
                      .findFirst()
                      .orElse(null);
              if (record == null) {
                return Optional.<Ended>empty();
              }
              InstanceData instance = Json.read(record, InstanceData.class);
              if (!InstanceStatus.RUNNING.name().equals(instance.status)) {
                return Optional.<Ended>empty();
              }
              InstanceStatus status =
                  aborted
                      ? InstanceStatus.ABORTED
                      : instance.failedJobs.isEmpty()
                          ? InstanceStatus.SUCCESS
                          : InstanceStatus.FAILURE;
              long now = clock.millis();
              instance.status = status.name();
              instance.endMillis = now;
              ArchiveData archive = new ArchiveData();
              archive.workflow = wf;
              archive.instance = inst;
              archive.status = status.name();
              boolean archiveNow = aborted || signals.contains(SignalAction.ARCHIVE);
              archive.dueMillis = now + (archiveNow ? 0 : archiveDelay.toMillis());
              archive.record = instance;
              // Due now: whole seconds rounded down, so the archiver can claim it at once.
              long expiration =
                  archiveNow ? archive.dueMillis / 1000 : ceilSeconds(archive.dueMillis);
              Token archiveToken =
                  new Token(
                      0,
                      TokenLayout.archive(wf, inst),
                      Owners.ARCHIVE_DELAY,
                      Math.max(1, expiration),
                      0,
                      Json.write(archive));
              List<Token> updates =
                  new ArrayList<>(List.of(record.withData(Json.write(instance)), archiveToken));
              updates.addAll(holds);
              List<Token> written = master.modify(new ModifyParams(updates, List.of()));
              Token archived =
                  written.stream()
                      .filter(t -> t.name().equals(archiveToken.name()))
                      .findFirst()
                      .orElseThrow();
              return Optional.of(
                  new Ended(status, archiveNow ? Optional.empty() : Optional.of(archived)));
            });
    ended
        .flatMap(Ended::delayedArchive)
        .ifPresent(token -> dueNowIfArchiveSignalled(wf, inst, token));
    return ended.map(Ended::status);
  }

  /** How an instance ended, and its archive token if that waits for the archive delay. */
  private record Ended(InstanceStatus status, Optional<Token> delayedArchive) {}

  /** The signals that apply to one instance: global, its workflow's and its own. */
  private static List<Query> signalQueries(String wf, String inst) {
    return List.of(
        Query.prefix(TokenLayout.globalSignalPrefix()),
        Query.prefix(TokenLayout.workflowSignalPrefix(wf)),
        Query.prefix(TokenLayout.instanceSignalPrefix(wf, inst)));
  }

  /**
   * An ARCHIVE signal set after {@link #endIfDone} read the signals, but before its archive token
   * was written, found no archive token to make due: the end reads the signals again and makes it
   * due itself. Either the archive operation sees the token or this read sees the signal. A
   * conflict means the operation did it.
   */
  private void dueNowIfArchiveSignalled(String wf, String inst, Token archiveToken) {
    if (!Claimer.actions(master.query(signalQueries(wf, inst))).contains(SignalAction.ARCHIVE)) {
      return;
    }
    try {
      master.modify(
          new ModifyParams(
              List.of(archiveToken.withOwner(Owners.ARCHIVE_DELAY, clock.millis() / 1000)),
              List.of()));
    } catch (TokenException e) {
      if (!ConflictRetry.isConflict(
          e)) { // the instance has ended all the same; it waits for the archive delay
        LOG.warn(
            "instance {}/{} ended under an ARCHIVE signal but could not be made due now: {}",
            wf,
            inst,
            e.getMessage());
      }
    }
  }

  /**
   * Runs a read-modify step that includes the held token; a conflict on that token means the lease
   * is lost. When the outcome of the step's modify is unknown (the connection broke during the call
   * and the client's retry conflicted), {@code applied} decides from what is stored now whether the
   * step took effect.
   */
  private <T> T holding(Token held, String what, Supplier<T> step, Supplier<Optional<T>> applied) {
    return ConflictRetry.run(
        what,
        () -> {
          try {
            return step.get();
          } catch (TokenException e) {
            boolean unknown = e.errorCode() == TokenErrorCode.UNKNOWN;
            if (ConflictRetry.isConflict(e) || unknown) {
              Optional<Token> current = readExact(held.name());
              if (current.isEmpty() || current.get().version() != held.version()) {
                if (unknown) {
                  Optional<T> done = applied.get();
                  if (done.isPresent()) {
                    return done.get();
                  }
                }
                throw leaseLost(held, e);
              }
              if (unknown) {
                // Our token is unchanged, so the modify did not apply: run the whole step again.
                throw new TokenException(
                    TokenErrorCode.VERSION_CONFLICT, "retrying after: " + e.getMessage(), e);
              }
            }
            throw e;
          }
        });
  }

  /**
   * True if the job's waiting token holds this execution closed: the success or failure that parked
   * the job (whose outcome was unknown) was written.
   */
  private boolean parkedWith(JobData data) {
    int execution = data.lastExecution().execution;
    return readExact(TokenLayout.waiting(data.workflow, data.instance, data.name))
        .map(t -> Json.read(t, JobData.class).lastExecution())
        .filter(last -> last != null && last.execution == execution && !last.isOpen())
        .isPresent();
  }

  public Optional<Token> readExact(String name) {
    return master.query(Query.prefix(name)).stream().filter(t -> t.name().equals(name)).findFirst();
  }

  private static LeaseLostException leaseLost(Token held, TokenException cause) {
    LeaseLostException lost =
        new LeaseLostException(
            "lost job "
                + held.name()
                + " (held version "
                + held.version()
                + ", owner "
                + held.owner()
                + "): it was changed or removed by someone else, usually a worker that"
                + " claimed it after the lease ended; "
                + cause.getMessage());
    lost.initCause(cause);
    return lost;
  }

  /** Event tokens carry no input field: their name says it. */
  private static EventData eventData(EventData event) {
    EventData stored = Json.copy(event, EventData.class);
    stored.input = null;
    return stored;
  }

  private static Map<String, List<Token>> byInput(List<Token> events, String inputsPrefix) {
    Map<String, List<Token>> byInput = new LinkedHashMap<>();
    for (Token event : events) {
      String rest = event.name().substring(inputsPrefix.length());
      int slash = rest.indexOf('/');
      if (slash > 0) {
        byInput.computeIfAbsent(rest.substring(0, slash), k -> new ArrayList<>()).add(event);
      }
    }
    return byInput;
  }

  /**
   * {@code EVENT_ATTR:name} properties as event attributes: a scalar per name (several values
   * comma-joined), never the list's text form that Pinball rendered (docs/workflows.md, "Passing
   * data between jobs").
   */
  static Map<String, String> eventAttributes(Map<String, List<String>> properties) {
    Map<String, String> attributes = new LinkedHashMap<>();
    properties.forEach(
        (key, values) -> {
          if (key.startsWith("EVENT_ATTR:") && key.length() > "EVENT_ATTR:".length()) {
            attributes.put(
                key.substring("EVENT_ATTR:".length()),
                String.join(",", new LinkedHashSet<>(values)));
          }
        });
    return attributes;
  }

  /** Leases are whole seconds: round up, so a delay is never cut short. */
  public static long ceilSeconds(long epochMillis) {
    return Math.floorDiv(epochMillis + 999, 1000);
  }
}
