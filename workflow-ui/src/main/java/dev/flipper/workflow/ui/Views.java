package dev.flipper.workflow.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.text.DurationText;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.control.ArchivedTokens;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceHold;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.RunRecords;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.StatusReader;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.engine.WorkflowSummary;
import dev.flipper.workflow.fleet.ExitSignal;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.schedule.ScheduleData;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.DamagedTokenException;
import dev.flipper.workflow.tokens.Listing;
import dev.flipper.workflow.ui.view.Banner;
import dev.flipper.workflow.ui.view.ExecutionRow;
import dev.flipper.workflow.ui.view.GraphNode;
import dev.flipper.workflow.ui.view.GridPage;
import dev.flipper.workflow.ui.view.InstancePage;
import dev.flipper.workflow.ui.view.InstanceRow;
import dev.flipper.workflow.ui.view.JobHistoryPage;
import dev.flipper.workflow.ui.view.JobPage;
import dev.flipper.workflow.ui.view.JobRow;
import dev.flipper.workflow.ui.view.Property;
import dev.flipper.workflow.ui.view.RunList;
import dev.flipper.workflow.ui.view.ScheduleRow;
import dev.flipper.workflow.ui.view.SchedulesPage;
import dev.flipper.workflow.ui.view.TokenEntry;
import dev.flipper.workflow.ui.view.TokenPage;
import dev.flipper.workflow.ui.view.TokensPage;
import dev.flipper.workflow.ui.view.WorkerRow;
import dev.flipper.workflow.ui.view.WorkersPage;
import dev.flipper.workflow.ui.view.WorkflowPage;
import dev.flipper.workflow.ui.view.WorkflowRow;
import dev.flipper.workflow.ui.view.WorkflowsPage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Builds what the pages show from the master's tokens, read at each call (so a page is never stale;
 * only the parse of an unchanged definition is reused, see {@link DefinitionCache}). An instance
 * that is no longer active is read from the master's archive; the run history's pages are built by
 * {@link RunsView}, {@link GridView} and {@link JobHistoryView}. Thread-safe.
 */
final class Views {
  /** How many finished instances the workflows list's success rate counts. */
  static final int SUCCESS_RATE_OF_LAST = 10;

  private static final Set<String> LINK_PROPERTIES = Set.of("job_url", "kv_job_url");

  /** The statuses of a finished run (InstanceStatus#isFinished), as the run history spells them. */
  private static final Set<String> FINISHED = Set.of("SUCCESS", "FAILURE", "ABORTED");

  /**
   * An instance id no instance has (ids are digits): signals of a workflow's scope and the global
   * one only.
   */
  private static final String NO_INSTANCE = "-";

  /** Where the active instances' tokens are (TokenLayout's, which is internal to the engine). */
  private static final String WORKFLOWS = "/workflow/";

  private static final ObjectMapper PRETTY =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final WorkflowEngine engine;
  private final TokenMaster master;
  private final DefinitionCache definitions;
  private final Clock clock;
  private final Executor readers;
  private final StatusReader archive;
  private final RunsView runs;
  private final GridView grid;
  private final JobHistoryView jobHistory;

  /**
   * @param readers runs reads side by side (the workflows list); owned by the caller
   */
  Views(WorkflowEngine engine, Clock clock, Executor readers) {
    this.engine = engine;
    this.readers = readers;
    this.master = engine.master();
    this.definitions = new DefinitionCache(master);
    this.clock = clock;
    this.archive = engine.status().withArchive(ArchivedTokens.of(master)::query);
    this.runs = new RunsView(engine.history());
    this.grid = new GridView(engine.history(), clock);
    this.jobHistory = new JobHistoryView(engine.history());
  }

  TokenMaster master() {
    return master;
  }

  /**
   * The global signals; throws if the master does not answer (the caller shows "master
   * unreachable").
   */
  Banner banner() {
    return new Banner(labels(engine.globalSignals(), "global"), null);
  }

  /**
   * Each workflow's instances are read on the reader threads, side by side: the master answers each
   * from a scan of that workflow's tokens, so one after the other they would add up. The names of
   * workflows that have instances but no definition (removed by a prune) are read alongside.
   */
  WorkflowsPage workflows() {
    Banner banner = banner();
    Map<String, StoredDefinition> definitions = new HashMap<>();
    Listing<StoredDefinition> stored = this.definitions.listing();
    stored.items().forEach(d -> definitions.put(d.name(), d));
    List<DamagedToken> damaged = new ArrayList<>(stored.damaged());
    CompletableFuture<Set<String>> withInstances =
        CompletableFuture.supplyAsync(
            () -> {
              Set<String> names = new TreeSet<>();
              master
                  .group(WORKFLOWS, "/")
                  .keySet()
                  .forEach(g -> names.add(g.substring(WORKFLOWS.length())));
              return names;
            },
            readers);
    Map<String, CompletableFuture<Listing<InstanceSummary>>> reads = new TreeMap<>();
    Map<String, CompletableFuture<List<RunRecord>>> archived = new HashMap<>();
    definitions.keySet().forEach(name -> reads.put(name, instancesAsync(name)));
    Map<String, ScheduleData> schedules = storedSchedules(damaged);
    join(withInstances).forEach(name -> reads.computeIfAbsent(name, this::instancesAsync));
    reads.keySet().forEach(name -> archived.put(name, archivedRunsAsync(name)));
    List<WorkflowRow> rows = new ArrayList<>();
    reads.forEach(
        (name, read) -> {
          Listing<InstanceSummary> instances = join(read);
          damaged.addAll(instances.damaged());
          rows.add(
              workflowRow(
                  name,
                  Optional.ofNullable(definitions.get(name)).map(StoredDefinition::definition),
                  schedules.get(name),
                  instances.items(),
                  join(archived.get(name))));
        });
    return new WorkflowsPage(banner, rows, damaged);
  }

  private CompletableFuture<Listing<InstanceSummary>> instancesAsync(String workflow) {
    return CompletableFuture.supplyAsync(() -> engine.status().instanceListing(workflow), readers);
  }

  /** The newest archived runs of a workflow, from the master's run history (newest first). */
  private CompletableFuture<List<RunRecord>> archivedRunsAsync(String workflow) {
    return CompletableFuture.supplyAsync(
        () -> master.queryRuns(RunQuery.latest(workflow, SUCCESS_RATE_OF_LAST)).runs(), readers);
  }

  /** The result of a read on a reader thread; its failure as thrown by the read itself. */
  private static <T> T join(CompletableFuture<T> read) {
    try {
      return read.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  /**
   * A workflow's row: while an instance runs, the running one that started last (Pinball's "last
   * instance") and its status by {@link WorkflowSummary#statusOf}; otherwise its latest run, active
   * or archived. The success rate counts its latest finished runs, active or archived.
   *
   * @param archived its newest archived runs, newest first
   */
  private WorkflowRow workflowRow(
      String name,
      Optional<WorkflowDefinition> definition,
      ScheduleData schedule,
      List<InstanceSummary> instances,
      List<RunRecord> archived) {
    int running =
        (int) instances.stream().filter(i -> i.status() == InstanceStatus.RUNNING).count();
    List<RunRecord> all = new ArrayList<>(archived);
    instances.forEach(i -> all.add(RunRecords.run(i)));
    all.sort(RunQuery.latest(name, 1).order());
    Optional<RunRecord> shown =
        running > 0 ? lastShown(instances).map(RunRecords::run) : all.stream().findFirst();
    String status =
        running > 0
            ? WorkflowSummary.statusOf(instances).map(Enum::name).orElse(null)
            : shown.map(RunRecord::status).orElse(null);
    List<RunRecord> counted =
        all.stream()
            .filter(r -> FINISHED.contains(r.status()))
            .limit(SUCCESS_RATE_OF_LAST)
            .toList();
    long successes = counted.stream().filter(r -> r.status().equals("SUCCESS")).count();
    return new WorkflowRow(
        name,
        definition.map(WorkflowDefinition::owners).orElse(List.of()),
        shownSchedule(definition, schedule),
        nextRun(schedule),
        status,
        shown.map(RunRecord::instance).orElse(null),
        shown.map(r -> iso(Instant.ofEpochMilli(r.startMillis()))).orElse(null),
        shown.map(RunRecord::endMillis).map(end -> iso(Instant.ofEpochMilli(end))).orElse(null),
        shown
            .map(
                r ->
                    Math.max(
                        0,
                        (r.endMillis() == null ? clock.millis() : r.endMillis()) - r.startMillis()))
            .orElse(null),
        running,
        counted.isEmpty() ? null : (int) Math.round(100.0 * successes / counted.size()),
        counted.size());
  }

  /** The running instance that started last, if any runs (Pinball's "last instance"). */
  private static Optional<InstanceSummary> lastShown(List<InstanceSummary> oldestFirst) {
    for (int i = oldestFirst.size() - 1; i >= 0; i--) {
      if (oldestFirst.get(i).status() == InstanceStatus.RUNNING) {
        return Optional.of(oldestFirst.get(i));
      }
    }
    return Optional.empty();
  }

  /**
   * Every workflow with a schedule token or a schedule in its stored definition; the newest
   * instance of each is read on the reader threads, as for the workflows list.
   */
  SchedulesPage schedules() {
    Banner banner = banner();
    Map<String, WorkflowDefinition> definitions = new HashMap<>();
    Listing<StoredDefinition> listing = this.definitions.listing();
    listing.items().forEach(d -> definitions.put(d.name(), d.definition()));
    List<DamagedToken> damaged = new ArrayList<>(listing.damaged());
    Map<String, ScheduleData> stored = storedSchedules(damaged);
    Map<String, CompletableFuture<Listing<InstanceSummary>>> reads = new TreeMap<>();
    stored.keySet().forEach(name -> reads.put(name, instancesAsync(name)));
    definitions.values().stream()
        .filter(d -> d.schedule().isPresent())
        .forEach(d -> reads.computeIfAbsent(d.name(), this::instancesAsync));
    List<ScheduleRow> rows = new ArrayList<>();
    reads.forEach(
        (name, read) -> {
          Listing<InstanceSummary> instances = join(read);
          damaged.addAll(instances.damaged());
          rows.add(
              scheduleRow(
                  name,
                  Optional.ofNullable(definitions.get(name)),
                  Optional.ofNullable(stored.get(name)),
                  instances.items()));
        });
    return new SchedulesPage(banner, rows, damaged);
  }

  private static ScheduleRow scheduleRow(
      String name,
      Optional<WorkflowDefinition> definition,
      Optional<ScheduleData> token,
      List<InstanceSummary> instances) {
    Optional<InstanceSummary> last =
        instances.isEmpty() ? Optional.empty() : Optional.of(instances.get(instances.size() - 1));
    int running =
        (int) instances.stream().filter(i -> i.status() == InstanceStatus.RUNNING).count();
    // Without a token the definition's schedule is shown, as reschedule would write it.
    ScheduleData data =
        token.orElseGet(
            () ->
                ScheduleTokens.fromDefinition(
                    definition.orElseThrow(),
                    definition.orElseThrow().schedule().orElseThrow(),
                    Instant.EPOCH));
    String state =
        token.isEmpty()
            ? "unscheduled"
            : definition.isEmpty()
                ? "no definition"
                : data.nextRunMillis == null ? "waiting" : "scheduled";
    return new ScheduleRow(
        name,
        state,
        data.recurrenceMillis == null
            ? null
            : DurationText.format(Duration.ofMillis(data.recurrenceMillis)),
        data.cron,
        data.cron == null ? null : data.timezone == null ? "UTC" : data.timezone,
        data.overrunPolicy,
        data.maxRunningInstances,
        data.catchUp,
        token.isEmpty() ? null : nextRun(data),
        last.map(i -> iso(i.start())).orElse(null),
        last.map(InstanceSummary::instance).orElse(null),
        last.map(i -> i.shownStatus().name()).orElse(null),
        running,
        data.emails);
  }

  /** Every worker by its heartbeat, with the EXIT signal and what it means for each. */
  WorkersPage workers() {
    Banner banner = banner();
    Listing<Heartbeat> listing = new Heartbeats(master).listing();
    List<Heartbeat> beats = listing.items();
    Optional<Integer> exit = new ExitSignal(master, clock).generation();
    Instant now = clock.instant();
    List<WorkerRow> rows = new ArrayList<>();
    int alive = 0;
    int retiring = 0;
    Integer newest = null;
    for (Heartbeat beat : beats) {
      String state =
          !beat.aliveAt(now)
              ? "dead"
              : beat.retiring() ? "retiring" : beat.takesWork(exit) ? "alive" : "draining";
      if (beat.aliveAt(now)) {
        alive++;
        newest = newest == null ? beat.generation() : Math.max(newest, beat.generation());
      }
      if (state.equals("retiring") || state.equals("draining")) {
        retiring++;
      }
      rows.add(
          new WorkerRow(
              beat.name(),
              beat.host(),
              beat.adminUrl().orElse(null),
              beat.generation(),
              beat.slots(),
              state,
              iso(beat.beat()),
              beat.age(now).toSeconds(),
              beat.deadAfter().toSeconds(),
              iso(beat.started()),
              beat.running().stream().map(Views::runningJob).toList()));
    }
    return new WorkersPage(
        banner,
        exit.orElse(null),
        newest,
        alive - retiring,
        retiring,
        beats.size() - alive,
        rows,
        listing.damaged());
  }

  /**
   * {@code <workflow>/<instance>/<job>} as a heartbeat lists it; no link parts if it does not split
   * so.
   */
  private static WorkerRow.RunningJob runningJob(String text) {
    String[] parts = text.split("/", 3);
    return parts.length == 3
        ? new WorkerRow.RunningJob(parts[0], parts[1], parts[2], text)
        : new WorkerRow.RunningJob(null, null, null, text);
  }

  /**
   * A workflow with one page of its runs, active and archived, as {@code filters} choose them; a
   * damaged definition or instance record is shown as such, with the rest.
   */
  WorkflowPage workflow(String name, RunFilters filters) {
    List<DamagedToken> damaged = new ArrayList<>();
    Optional<StoredDefinition> stored;
    try {
      stored = definitions.get(name);
    } catch (DamagedTokenException e) {
      stored = Optional.empty();
      damaged.add(e.damage());
    }
    Listing<InstanceSummary> listing = engine.status().instanceListing(name);
    damaged.addAll(listing.damaged());
    List<InstanceSummary> instances = listing.items();
    if (stored.isEmpty()
        && instances.isEmpty()
        && damaged.isEmpty()
        && engine.history().latest(name).isEmpty()) {
      throw new NotFoundException(
          "no workflow '" + name + "' (no stored definition and no run, active or archived)");
    }
    Banner banner = banner(name, NO_INSTANCE, "workflow");
    List<InstanceRow> rows = new ArrayList<>();
    for (int i = instances.size() - 1; i >= 0; i--) {
      rows.add(instanceRow(instances.get(i)));
    }
    Optional<WorkflowDefinition> definition = stored.map(StoredDefinition::definition);
    Map<String, ScheduleData> schedules = storedSchedules(damaged);
    List<GraphNode> graph = new ArrayList<>();
    definition.ifPresent(
        d ->
            d.jobs()
                .forEach(
                    j ->
                        graph.add(
                            new GraphNode(
                                j.name(),
                                j.disabled() ? "DISABLED" : "WAITING",
                                parents(j.needs()),
                                j.condition()))));
    return new WorkflowPage(
        banner,
        name,
        definition.map(WorkflowDefinition::description).orElse(""),
        definition.map(WorkflowDefinition::owners).orElse(List.of()),
        shownSchedule(definition, schedules.get(name)),
        nextRun(schedules.get(name)),
        stored.map(StoredDefinition::version).orElse(null),
        stored.map(s -> iso(s.appliedAt())).orElse(null),
        definition.map(WorkflowDefinition::toYaml).orElse(null),
        rows,
        graph,
        damaged,
        runs.page(name, filters));
  }

  /** One page of a workflow's runs, active and archived ({@code /api/workflows/<wf>/runs}). */
  RunList runs(String workflow, RunFilters filters) {
    return runs.list(workflow, filters);
  }

  /**
   * The grid of a workflow's latest runs.
   *
   * @param runs the {@code runs} parameter as given; null: the default
   */
  GridPage grid(String workflow, String runs) {
    Optional<WorkflowDefinition> definition;
    try {
      definition = definitions.get(workflow).map(StoredDefinition::definition);
    } catch (DamagedTokenException e) {
      definition = Optional.empty(); // the jobs in the order they ran
    }
    return grid.page(banner(workflow, NO_INSTANCE, "workflow"), workflow, runs, definition);
  }

  /** Every execution of one job across a workflow's runs, one page of them. */
  JobHistoryPage jobHistory(String workflow, String job, RunFilters filters) {
    return jobHistory.page(banner(workflow, NO_INSTANCE, "workflow"), workflow, job, filters);
  }

  InstancePage instance(String workflow, String instance) {
    Found found = instanceDetail(workflow, instance);
    InstanceDetail detail = found.detail();
    Banner banner = banner(workflow, instance, "workflow or instance");
    InstanceSummary summary = detail.summary();
    List<JobRow> jobs = new ArrayList<>();
    List<GraphNode> graph = new ArrayList<>();
    for (JobDetail job : detail.jobs()) {
      jobs.add(jobRow(job));
      graph.add(
          new GraphNode(job.name(), job.status().name(), parents(job.needs()), job.condition()));
    }
    return new InstancePage(
        banner,
        instanceRow(summary),
        summary.params(),
        summary.failedJobs(),
        jobs,
        graph,
        Timeline.of(
            workflow, instance, summary.start(), summary.end(), detail.jobs(), clock.instant()),
        ActionAvailability.of(
            summary.shownStatus().name(),
            summary.hold().map(InstanceHold::levels).orElse(List.of()),
            jobs),
        detail.damaged(),
        found.archived());
  }

  JobPage job(String workflow, String instance, String job) {
    Found found = instanceDetail(workflow, instance);
    JobDetail detail = jobDetail(found, workflow, instance, job);
    Banner banner = banner(workflow, instance, "workflow or instance");
    List<ExecutionRow> executions = detail.executions().stream().map(this::executionRow).toList();
    return new JobPage(banner, workflow, instance, jobRow(detail), executions, found.archived());
  }

  private static JobDetail jobDetail(Found found, String workflow, String instance, String job) {
    return found
        .detail()
        .job(job)
        .orElseThrow(
            () -> new NotFoundException("no job '" + job + "' in " + workflow + "/" + instance));
  }

  ExecutionDetail execution(String workflow, String instance, String job, int execution) {
    return jobDetail(instanceDetail(workflow, instance), workflow, instance, job)
        .executions()
        .stream()
        .filter(e -> e.execution() == execution)
        .findFirst()
        .orElseThrow(
            () ->
                new NotFoundException(
                    "no execution " + execution + " of " + workflow + "/" + instance + "/" + job));
  }

  /** An instance, active or else archived (read from the master's archive, as the CLI does). */
  private Found instanceDetail(String workflow, String instance) {
    Optional<InstanceDetail> active = engine.status().instance(workflow, instance);
    if (active.isPresent()) {
      return new Found(active.get(), false);
    }
    return new Found(
        archive
            .archivedInstance(workflow, instance)
            .orElseThrow(
                () ->
                    new NotFoundException(
                        "no instance "
                            + workflow
                            + "/"
                            + instance
                            + ", active or archived (cleanup may have deleted it)")),
        true);
  }

  /** An instance's detail and whether it came from the archive. */
  private record Found(InstanceDetail detail, boolean archived) {}

  /**
   * The token browser: the groups one level below {@code path} (split at {@code /}). A group that
   * is also a whole token name is listed as a leaf too.
   */
  TokensPage tokens(String path) {
    Banner banner = banner();
    String prefix = path.isEmpty() ? "/" : path;
    SortedMap<String, Integer> groups = master.group(prefix, "/");
    List<String> keys = new ArrayList<>(groups.keySet());
    List<List<Token>> firsts =
        keys.isEmpty() ? List.of() : master.query(keys.stream().map(k -> Query.top(k, 1)).toList());
    List<TokenEntry> entries = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      int count = groups.get(key);
      boolean leaf = !firsts.get(i).isEmpty() && firsts.get(i).get(0).name().equals(key);
      if (leaf) {
        entries.add(new TokenEntry(key, 1, true));
      }
      if (!leaf || count > 1) {
        entries.add(new TokenEntry(key + "/", leaf ? count - 1 : count, false));
      }
    }
    return new TokensPage(banner, prefix, crumbs(prefix), entries);
  }

  TokenPage token(String name) {
    Banner banner = banner();
    List<Token> found = name.isEmpty() ? List.of() : master.query(Query.top(name, 1));
    if (found.isEmpty() || !found.get(0).name().equals(name)) {
      throw new NotFoundException("no active token '" + name + "'");
    }
    Token token = found.get(0);
    String expiration =
        token.owner() == null || token.owner().isEmpty()
            ? null
            : token.expirationTime() == Long.MAX_VALUE
                ? "never"
                : iso(Instant.ofEpochSecond(token.expirationTime()));
    return new TokenPage(
        banner,
        token.name(),
        token.version(),
        token.owner(),
        expiration,
        token.priority(),
        prettyData(token.data()));
  }

  private static List<String> crumbs(String path) {
    List<String> crumbs = new ArrayList<>();
    crumbs.add("/");
    int at = path.indexOf('/', 1);
    while (at > 0) {
      crumbs.add(path.substring(0, at + 1));
      at = path.indexOf('/', at + 1);
    }
    return crumbs;
  }

  private static String prettyData(String data) {
    if (data == null) {
      return "";
    }
    try {
      JsonNode node = PRETTY.readTree(data);
      return node != null && node.isContainerNode() ? PRETTY.writeValueAsString(node) : data;
    } catch (Exception e) {
      return data; // not JSON: shown as stored
    }
  }

  /** The schedule tokens by workflow; those that do not parse are also added to {@code damaged}. */
  private Map<String, ScheduleData> storedSchedules(List<DamagedToken> damaged) {
    Map<String, ScheduleData> schedules = new HashMap<>();
    for (Token token : master.query(Query.prefix(ScheduleTokens.PREFIX))) {
      try {
        ScheduleData data = DamagedToken.decode(token, ScheduleTokens::read);
        schedules.put(data.workflow, data);
      } catch (DamagedTokenException e) {
        // The list shows no next run rather than failing, but the workflow still counts as
        // scheduled.
        damaged.add(e.damage());
        ScheduleData unreadable = new ScheduleData();
        unreadable.workflow = token.name().substring(token.name().lastIndexOf('/') + 1);
        schedules.put(unreadable.workflow, unreadable);
      }
    }
    return schedules;
  }

  /**
   * The definition's schedule as written, marked "(unscheduled)" when its schedule token is gone
   * ({@code flipper workflow unschedule}): schedulers then start nothing until a reschedule.
   */
  private static String shownSchedule(Optional<WorkflowDefinition> definition, ScheduleData token) {
    return definition
        .flatMap(WorkflowDefinition::schedule)
        .map(Views::scheduleText)
        .map(text -> token == null ? text + " (unscheduled)" : text)
        .orElse(null);
  }

  private static String nextRun(ScheduleData schedule) {
    return schedule == null || schedule.nextRunMillis == null
        ? null
        : iso(Instant.ofEpochMilli(schedule.nextRunMillis));
  }

  static String scheduleText(Schedule schedule) {
    String when =
        schedule
            .every()
            .map(d -> "every " + DurationText.format(d))
            .orElseGet(
                () ->
                    "cron "
                        + schedule.cron().orElse("?")
                        + " ("
                        + schedule.timezone().getId()
                        + ")");
    return when
        + ", overrun "
        + schedule.overrun().name()
        + ", at most "
        + schedule.maxRunning()
        + " running";
  }

  /** The global signals, then those of the workflow or instance (one query of all three scopes). */
  private Banner banner(String workflow, String instance, String scope) {
    Set<SignalAction> global = engine.globalSignals();
    Set<SignalAction> own = EnumSet.noneOf(SignalAction.class);
    own.addAll(engine.signals(workflow, instance));
    own.removeAll(global);
    List<String> labels = new ArrayList<>(labels(global, "global"));
    labels.addAll(labels(own, scope));
    return new Banner(labels, null);
  }

  private static List<String> labels(Set<SignalAction> actions, String scope) {
    return actions.stream()
        .filter(a -> a != SignalAction.ARCHIVE)
        .sorted()
        .map(a -> a.name() + " (" + scope + ")")
        .toList();
  }

  private InstanceRow instanceRow(InstanceSummary s) {
    return new InstanceRow(
        s.workflow(),
        s.instance(),
        s.shownStatus().name(),
        s.hold().map(InstanceHold::describe).orElse(null),
        iso(s.start()),
        s.end().map(Views::iso).orElse(null),
        durationMillis(s),
        s.startedBy(),
        s.definitionVersion());
  }

  private JobRow jobRow(JobDetail job) {
    Optional<ExecutionDetail> last = job.lastExecution();
    return new JobRow(
        job.name(),
        job.status().name(),
        parents(job.needs()),
        job.attempt(),
        job.maxAttempts(),
        job.condition(),
        job.disabled(),
        job.priority(),
        job.heldBy(),
        job.executions().size(),
        last.map(e -> iso(e.start())).orElse(null),
        last.flatMap(ExecutionDetail::end).map(Views::iso).orElse(null),
        last.map(this::executionMillis).orElse(null));
  }

  private ExecutionRow executionRow(ExecutionDetail e) {
    List<Property> properties = new ArrayList<>();
    new TreeMap<>(e.properties())
        .forEach(
            (key, values) ->
                properties.add(
                    new Property(
                        key,
                        values,
                        LINK_PROPERTIES.contains(key)
                            && values.stream().allMatch(Views::isWebUrl))));
    return new ExecutionRow(
        e.execution(),
        e.attempt(),
        e.command(),
        e.exitCode(),
        e.cleanupExitCode(),
        e.endReason(),
        iso(e.start()),
        e.end().map(Views::iso).orElse(null),
        executionMillis(e),
        e.worker(),
        e.host(),
        e.running(),
        properties,
        new ArrayList<>(new TreeMap<>(e.logs()).keySet()));
  }

  /** Only http(s) values become links: a {@code javascript:} URL a job printed must stay text. */
  static boolean isWebUrl(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    return v.startsWith("http://") || v.startsWith("https://");
  }

  /** Inputs without the instance's start marker: only parent jobs. */
  private static List<String> parents(List<String> needs) {
    return needs.stream().filter(n -> !n.startsWith("__")).toList();
  }

  private long durationMillis(InstanceSummary s) {
    return s.end().orElse(clock.instant()).toEpochMilli() - s.start().toEpochMilli();
  }

  private long executionMillis(ExecutionDetail e) {
    return Math.max(0, e.end().orElse(clock.instant()).toEpochMilli() - e.start().toEpochMilli());
  }

  static String iso(Instant instant) {
    return instant.toString();
  }
}
