package dev.flipper.workflow.engine;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.tokens.ArchiveData;
import dev.flipper.workflow.tokens.DefinitionData;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The read model of workflows for the CLI and the UI: derived from the tokens at each call, never
 * cached. {@link #workflows}, {@link #instances} and {@link #instance} see active (not yet
 * archived) instances; given the archived tokens ({@link #withArchive}), {@link #archivedInstances}
 * and {@link #archivedInstance} see the archived ones. Thread-safe.
 */
public final class StatusReader {
  /** Instance ids are epoch milliseconds: order by length, then text, which is numeric order. */
  static final Comparator<String> INSTANCE_ORDER =
      Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder());

  private final TokenMaster master;
  private final Clock clock;
  private final Function<String, List<Token>> archived;

  StatusReader(TokenMaster master, Clock clock) {
    this(master, clock, prefix -> List.of());
  }

  private StatusReader(TokenMaster master, Clock clock, Function<String, List<Token>> archived) {
    this.master = master;
    this.clock = clock;
    this.archived = archived;
  }

  /**
   * This reader with access to archived tokens: {@code archived} returns every archived token under
   * a name prefix, usually read from the master in pages ({@code
   * ArchivedTokens.of(master)::query}).
   */
  public StatusReader withArchive(Function<String, List<Token>> archived) {
    return new StatusReader(master, clock, Objects.requireNonNull(archived, "archived"));
  }

  /** Every workflow with a stored definition or an active instance, by name. */
  public List<WorkflowSummary> workflows() {
    Map<String, String> versions = new TreeMap<>();
    for (Token token : master.query(Query.prefix(TokenLayout.DEFINITIONS))) {
      versions.put(TokenLayout.last(token.name()), Json.read(token, DefinitionData.class).version);
    }
    Set<String> names = new TreeSet<>(versions.keySet());
    master.group(TokenLayout.WORKFLOWS, "/").keySet().forEach(g -> names.add(TokenLayout.last(g)));
    List<WorkflowSummary> summaries = new ArrayList<>();
    for (String name : names) {
      List<InstanceSummary> instances = instances(name);
      int running =
          (int) instances.stream().filter(i -> i.status() == InstanceStatus.RUNNING).count();
      Optional<InstanceSummary> last =
          instances.isEmpty() ? Optional.empty() : Optional.of(instances.get(instances.size() - 1));
      summaries.add(
          new WorkflowSummary(
              name,
              Optional.ofNullable(versions.get(name)),
              running,
              last,
              WorkflowSummary.statusOf(instances)));
    }
    return summaries;
  }

  /** The active instances of a workflow, oldest first. */
  public List<InstanceSummary> instances(String workflow) {
    List<String> ids = new ArrayList<>();
    master
        .group(TokenLayout.workflowPrefix(workflow), "/")
        .keySet()
        .forEach(g -> ids.add(TokenLayout.last(g)));
    ids.sort(INSTANCE_ORDER);
    if (ids.isEmpty()) {
      return List.of();
    }
    List<Query> queries =
        new ArrayList<>(
            ids.stream()
                .map(id -> Query.prefix(TokenLayout.instanceRecord(workflow, id)))
                .toList());
    queries.addAll(SignalHolds.queries(workflow));
    List<List<Token>> read = master.query(queries);
    SignalHolds holds = SignalHolds.of(workflow, read.subList(ids.size(), read.size()));
    List<InstanceSummary> summaries = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      String recordName = TokenLayout.instanceRecord(workflow, ids.get(i));
      read.get(i).stream()
          .filter(t -> t.name().equals(recordName))
          .findFirst()
          .ifPresent(t -> summaries.add(held(Json.read(t, InstanceData.class).toSummary(), holds)));
    }
    return summaries;
  }

  /**
   * One active instance with every job; empty if there is no such instance (or it was archived).
   */
  public Optional<InstanceDetail> instance(String workflow, String instance) {
    List<Query> queries =
        new ArrayList<>(
            List.of(
                Query.prefix(TokenLayout.instanceRecord(workflow, instance)),
                Query.prefix(TokenLayout.waitingPrefix(workflow, instance)),
                Query.prefix(TokenLayout.runnablePrefix(workflow, instance))));
    queries.addAll(SignalHolds.queries(workflow));
    List<List<Token>> read = master.query(queries);
    SignalHolds holds = SignalHolds.of(workflow, read.subList(3, read.size()));
    long nowSeconds = clock.instant().getEpochSecond();
    return detail(
            workflow,
            instance,
            read.get(0),
            read.get(1),
            read.get(2),
            (token, data) -> runnableStatus(token, data, nowSeconds))
        .map(d -> new InstanceDetail(held(d.summary(), holds), d.jobs()));
  }

  /** A running instance with the PAUSE or DRAIN signal that holds it, if any. */
  private static InstanceSummary held(InstanceSummary summary, SignalHolds holds) {
    return summary.status() == InstanceStatus.RUNNING
        ? summary.withHold(holds.of(summary.instance()))
        : summary;
  }

  /**
   * The archived instances of a workflow, oldest first, from their archive tokens (one each); empty
   * without {@link #withArchive}.
   */
  public List<InstanceSummary> archivedInstances(String workflow) {
    List<InstanceSummary> summaries = new ArrayList<>();
    for (Token token : latest(archived.apply(TokenLayout.ARCHIVE + workflow + "/"))) {
      ArchiveData archive = Json.read(token, ArchiveData.class);
      if (!workflow.equals(archive.workflow)) {
        continue; // a workflow whose name extends this one's
      }
      if (archive.record != null) {
        summaries.add(archive.record.toSummary());
      } else {
        // Written before archive tokens held the record: read the archived record itself.
        String recordName = TokenLayout.instanceRecord(workflow, archive.instance);
        latest(archived.apply(recordName)).stream()
            .filter(t -> t.name().equals(recordName))
            .findFirst()
            .ifPresent(t -> summaries.add(Json.read(t, InstanceData.class).toSummary()));
      }
    }
    summaries.sort(Comparator.comparing(InstanceSummary::instance, INSTANCE_ORDER));
    return summaries;
  }

  /**
   * An archived instance with every job as it was archived (a job left runnable shows RUNNABLE);
   * empty if it is not archived, or without {@link #withArchive}.
   */
  public Optional<InstanceDetail> archivedInstance(String workflow, String instance) {
    List<Token> tokens = latest(archived.apply(TokenLayout.instancePrefix(workflow, instance)));
    String waitingPrefix = TokenLayout.waitingPrefix(workflow, instance);
    return detail(
        workflow,
        instance,
        tokens,
        tokens.stream().filter(t -> t.name().startsWith(waitingPrefix)).toList(),
        latest(archived.apply(TokenLayout.runnablePrefix(workflow, instance))),
        (token, data) -> JobStatus.RUNNABLE);
  }

  private Optional<InstanceDetail> detail(
      String workflow,
      String instance,
      List<Token> records,
      List<Token> waiting,
      List<Token> runnable,
      BiFunction<Token, JobData, JobStatus> runnableStatus) {
    String recordName = TokenLayout.instanceRecord(workflow, instance);
    Optional<Token> record = records.stream().filter(t -> t.name().equals(recordName)).findFirst();
    if (record.isEmpty()) {
      return Optional.empty();
    }
    Map<String, JobDetail> jobs = new HashMap<>();
    for (Token token : waiting) {
      JobData data = Json.read(token, JobData.class);
      jobs.put(data.name, job(data, waitingStatus(data), null));
    }
    for (Token token : runnable) {
      JobData data = Json.read(token, JobData.class);
      jobs.put(data.name, job(data, runnableStatus.apply(token, data), token));
    }
    return Optional.of(
        new InstanceDetail(
            Json.read(record.get(), InstanceData.class).toSummary(),
            upstreamFailed(runOrder(jobs))));
  }

  /** The newest version of each name: a name may have been archived more than once. */
  private static List<Token> latest(List<Token> tokens) {
    Map<String, Token> newest = new TreeMap<>();
    for (Token token : tokens) {
      newest.merge(token.name(), token, (a, b) -> a.version() >= b.version() ? a : b);
    }
    return List.copyOf(newest.values());
  }

  /** The status of a job parked in, or waiting in, the waiting state. */
  static JobStatus waitingStatus(JobData data) {
    ExecutionData last = data.lastExecution();
    if (last == null) {
      return data.disabled ? JobStatus.DISABLED : JobStatus.WAITING;
    }
    if (ExecutionData.DISABLED_INFO.equals(last.info) && last.succeeded()) {
      return JobStatus.DISABLED;
    }
    return last.succeeded() ? JobStatus.SUCCESS : JobStatus.FAILURE;
  }

  /**
   * A runnable token held by a worker, or whose previous worker left an open record, is RUNNING.
   */
  static JobStatus runnableStatus(Token token, JobData data, long nowSeconds) {
    if (Owners.isHold(token.owner())) {
      return JobStatus.RUNNABLE;
    }
    if (token.isOwnedAt(nowSeconds) || data.hasOpenExecution()) {
      return JobStatus.RUNNING;
    }
    return JobStatus.RUNNABLE;
  }

  private static JobDetail job(JobData data, JobStatus status, Token runnable) {
    List<ExecutionDetail> executions = new ArrayList<>();
    for (ExecutionData record : data.history) {
      executions.add(record.toDetail());
    }
    String heldBy =
        runnable == null || runnable.owner() == null || runnable.owner().isEmpty()
            ? null
            : runnable.owner();
    Optional<Instant> leaseEnd =
        heldBy == null || runnable.expirationTime() == Owners.FOREVER
            ? Optional.empty()
            : Optional.of(Instant.ofEpochSecond(runnable.expirationTime()));
    return new JobDetail(
        data.name,
        status,
        List.copyOf(data.inputs),
        data.attempt,
        data.maxAttempts,
        data.isCondition(),
        data.disabled,
        data.priority,
        heldBy,
        leaseEnd,
        List.copyOf(executions));
  }

  /**
   * Marks UPSTREAM_FAILED the waiting jobs below a job that failed for good: a parent that failed
   * (or is itself below a failure) never sends its event, so they cannot run in this instance
   * unless that parent is retried. {@code ordered} has parents before children.
   */
  private static List<JobDetail> upstreamFailed(List<JobDetail> ordered) {
    Set<String> failed = new HashSet<>();
    List<JobDetail> marked = new ArrayList<>();
    for (JobDetail job : ordered) {
      if (job.status() == JobStatus.FAILURE) {
        failed.add(job.name());
      } else if (job.status() == JobStatus.WAITING
          && job.needs().stream().anyMatch(failed::contains)) {
        failed.add(job.name());
        job = job.withStatus(JobStatus.UPSTREAM_FAILED);
      }
      marked.add(job);
    }
    return marked;
  }

  /** Parents before children, ties by name (Kahn's algorithm over the jobs' inputs). */
  private static List<JobDetail> runOrder(Map<String, JobDetail> jobs) {
    List<JobDetail> ordered = new ArrayList<>();
    Set<String> placed = new HashSet<>();
    TreeMap<String, JobDetail> left = new TreeMap<>(jobs);
    while (!left.isEmpty()) {
      String next =
          left.values().stream()
              .filter(
                  j -> j.needs().stream().allMatch(n -> placed.contains(n) || !jobs.containsKey(n)))
              .map(JobDetail::name)
              .findFirst()
              .orElse(left.firstKey()); // a cycle cannot happen; never stall
      ordered.add(left.remove(next));
      placed.add(next);
    }
    return ordered;
  }
}
