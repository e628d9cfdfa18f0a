package dev.flipper.workflow.engine;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.internal.DefinitionStore;
import dev.flipper.workflow.tokens.ArchiveData;
import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.DamagedTokenException;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Listing;
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
    return workflowListing().items();
  }

  /**
   * {@link #workflows}, with the definitions and instance records that do not parse as damaged
   * entries (a workflow whose definition is damaged is listed only if it has instances).
   */
  public Listing<WorkflowSummary> workflowListing() {
    Listing<StoredDefinition> definitions =
        Listing.decode(
            master.query(Query.prefix(TokenLayout.DEFINITIONS)), DefinitionStore::decode);
    Map<String, String> versions = new TreeMap<>();
    definitions.items().forEach(d -> versions.put(d.name(), d.version()));
    Set<String> names = new TreeSet<>(versions.keySet());
    master.group(TokenLayout.WORKFLOWS, "/").keySet().forEach(g -> names.add(TokenLayout.last(g)));
    List<WorkflowSummary> summaries = new ArrayList<>();
    List<DamagedToken> damaged = new ArrayList<>(definitions.damaged());
    for (String name : names) {
      Listing<InstanceSummary> listing = instanceListing(name);
      damaged.addAll(listing.damaged());
      List<InstanceSummary> instances = listing.items();
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
    return new Listing<>(summaries, damaged);
  }

  /** The active instances of a workflow, oldest first; records that do not parse are left out. */
  public List<InstanceSummary> instances(String workflow) {
    return instanceListing(workflow).items();
  }

  /** {@link #instances}, with the instance records that do not parse as damaged entries. */
  public Listing<InstanceSummary> instanceListing(String workflow) {
    List<String> ids = new ArrayList<>();
    master
        .group(TokenLayout.workflowPrefix(workflow), "/")
        .keySet()
        .forEach(g -> ids.add(TokenLayout.last(g)));
    ids.sort(INSTANCE_ORDER);
    if (ids.isEmpty()) {
      return new Listing<>(List.of(), List.of());
    }
    List<Query> queries =
        new ArrayList<>(
            ids.stream()
                .map(id -> Query.prefix(TokenLayout.instanceRecord(workflow, id)))
                .toList());
    queries.addAll(SignalHolds.queries(workflow));
    List<List<Token>> read = master.query(queries);
    SignalHolds holds = SignalHolds.of(workflow, read.subList(ids.size(), read.size()));
    List<Token> records = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      String recordName = TokenLayout.instanceRecord(workflow, ids.get(i));
      read.get(i).stream()
          .filter(t -> t.name().equals(recordName))
          .findFirst()
          .ifPresent(records::add);
    }
    return Listing.decode(records, t -> held(summary(t), holds));
  }

  /**
   * One active instance with every job; empty if there is no such instance (or it was archived).
   * Job tokens that do not parse are the detail's damaged entries.
   *
   * @throws DamagedTokenException if the instance record does not parse
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
        .map(d -> new InstanceDetail(held(d.summary(), holds), d.jobs(), d.damaged()));
  }

  /** A running instance with the PAUSE or DRAIN signal that holds it, if any. */
  private static InstanceSummary held(InstanceSummary summary, SignalHolds holds) {
    return summary.status() == InstanceStatus.RUNNING
        ? summary.withHold(holds.of(summary.instance()))
        : summary;
  }

  /**
   * The archived instances of a workflow, oldest first, from their archive tokens (one each); empty
   * without {@link #withArchive}. An archived token that does not parse is left out (warned once).
   */
  public List<InstanceSummary> archivedInstances(String workflow) {
    List<Token> tokens = latest(archived.apply(TokenLayout.ARCHIVE + workflow + "/"));
    List<InstanceSummary> summaries =
        new ArrayList<>(
            Listing.decode(tokens, token -> archivedSummary(workflow, token)).items().stream()
                .flatMap(Optional::stream)
                .toList());
    summaries.sort(Comparator.comparing(InstanceSummary::instance, INSTANCE_ORDER));
    return summaries;
  }

  /** The record an archive token holds; empty for a workflow whose name extends this one's. */
  private Optional<InstanceSummary> archivedSummary(String workflow, Token token) {
    ArchiveData archive = Json.read(token, ArchiveData.class);
    if (!workflow.equals(archive.workflow)) {
      return Optional.empty();
    }
    if (archive.record != null) {
      return Optional.of(archive.record.toSummary());
    }
    // Written before archive tokens held the record: read the archived record itself.
    String recordName = TokenLayout.instanceRecord(workflow, archive.instance);
    return latest(archived.apply(recordName)).stream()
        .filter(t -> t.name().equals(recordName))
        .findFirst()
        .map(StatusReader::summary);
  }

  /**
   * An archived instance with every job as it was archived (a job left runnable shows RUNNABLE);
   * empty if it is not archived, or without {@link #withArchive}.
   *
   * @throws DamagedTokenException if the instance record does not parse
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
    InstanceSummary summary = DamagedToken.decode(record.get(), StatusReader::summary);
    Listing<JobDetail> waitingJobs =
        Listing.decode(
            waiting,
            t -> {
              JobData data = Json.read(t, JobData.class);
              return job(data, waitingStatus(data), null);
            });
    Listing<JobDetail> runnableJobs =
        Listing.decode(
            runnable,
            t -> {
              JobData data = Json.read(t, JobData.class);
              return job(data, runnableStatus.apply(t, data), t);
            });
    Map<String, JobDetail> jobs = new HashMap<>();
    waitingJobs.items().forEach(j -> jobs.put(j.name(), j));
    runnableJobs.items().forEach(j -> jobs.put(j.name(), j));
    List<DamagedToken> damaged = new ArrayList<>(waitingJobs.damaged());
    damaged.addAll(runnableJobs.damaged());
    return Optional.of(new InstanceDetail(summary, upstreamFailed(runOrder(jobs)), damaged));
  }

  private static InstanceSummary summary(Token record) {
    return Json.read(record, InstanceData.class).toSummary();
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
