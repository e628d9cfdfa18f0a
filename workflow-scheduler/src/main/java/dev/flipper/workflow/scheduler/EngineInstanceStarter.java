package dev.flipper.workflow.scheduler;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.Definitions;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.Instances;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.scheduler.overrun.InstanceOutcome;
import dev.flipper.workflow.scheduler.overrun.WorkflowRuns;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.SignalData;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduler's view of the workflow engine: starts instances with {@code Instances.start(...,
 * alongside)}, or builds an instance's tokens for a batch of starts in one modify ({@code
 * Instances.startTokens}), reads running instances from the engine's status model, and builds ABORT
 * signals. Thread-safe.
 *
 * <p>Two limits of what the engine offers today: only active (not yet archived) instances are
 * visible, so DELAY_UNTIL_SUCCESS stops waiting on a failed instance once it is archived (after
 * {@code workers.archiveDelay}, 12 h by default); and the ABORT signal is written with the engine's
 * token layout ({@code dev.flipper.workflow.tokens}) until the control operations publish a way to
 * write signals.
 */
public final class EngineInstanceStarter implements InstanceStarter {
  /** The triggers an instance record names, which run histories show and filter by. */
  public static final String SCHEDULER = "scheduler";

  public static final String BACKFILL = "backfill";

  private final WorkflowEngine engine;
  private final Clock clock;
  private final String startedBy;

  /**
   * Parsed definitions by workflow, with their token's version: parsing the YAML costs more than
   * reading it.
   */
  private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();

  private record Parsed(long tokenVersion, StoredDefinition definition) {}

  public EngineInstanceStarter(WorkflowEngine engine, Clock clock) {
    this(engine, clock, SCHEDULER);
  }

  /** A starter whose instances record {@code startedBy} ({@link #SCHEDULER}, {@link #BACKFILL}). */
  public EngineInstanceStarter(WorkflowEngine engine, Clock clock, String startedBy) {
    this.engine = engine;
    this.clock = clock;
    this.startedBy = startedBy;
  }

  /** A starter over an engine of its own on {@code master}. */
  public static EngineInstanceStarter over(TokenMaster master, Clock clock) {
    return new EngineInstanceStarter(WorkflowEngine.builder(master).clock(clock).build(), clock);
  }

  @Override
  public Optional<String> start(
      String workflow, Map<String, String> params, List<Token> alongside) {
    if (engine.definitions().get(workflow).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(engine.instances().start(workflow, startedBy, params, alongside));
  }

  /**
   * The engine's tokens for the instance ({@code Instances.startTokens}), so a claimed batch fires
   * in one modify.
   */
  @Override
  public Optional<List<Token>> startTokens(
      String workflow, String instanceId, Map<String, String> params) {
    return engine.instances().startTokens(workflow, instanceId, startedBy, params);
  }

  /**
   * Reads the definitions and instance records of all {@code workflows} in one call, instead of
   * three calls per schedule: what lets one scheduler fire hundreds of schedules a second through a
   * remote master.
   */
  @Override
  public InstanceStarter forBatch(List<String> workflows) {
    return new BatchView(this, workflows);
  }

  @Override
  public boolean buildsTokens() {
    return true;
  }

  @Override
  public List<Token> abortTokens(String workflow, String instance) {
    if (engine.signals(workflow, instance).contains(SignalAction.ABORT)) {
      return List.of(); // already aborting (an earlier slot, or someone by hand)
    }
    SignalData signal = new SignalData();
    signal.action = SignalAction.ABORT.name();
    signal.timestampMillis = clock.millis();
    return List.of(
        Token.of(
            TokenLayout.instanceSignal(workflow, instance, SignalAction.ABORT),
            Json.write(signal)));
  }

  @Override
  public WorkflowRuns runs(String workflow) {
    return runsOf(engine.status().instances(workflow));
  }

  private StoredDefinition decode(Token token) {
    String workflow = token.name().substring(TokenLayout.DEFINITIONS.length());
    Parsed known = parsed.get(workflow);
    if (known != null && known.tokenVersion() == token.version()) {
      return known.definition();
    }
    StoredDefinition definition = Definitions.decode(token);
    parsed.put(workflow, new Parsed(token.version(), definition));
    return definition;
  }

  private static WorkflowRuns runsOf(List<InstanceSummary> instances) {
    List<String> running =
        instances.stream()
            .filter(i -> i.status() == InstanceStatus.RUNNING)
            .map(InstanceSummary::instance)
            .toList();
    Optional<InstanceOutcome> last =
        instances.stream()
            .filter(i -> i.status().isFinished())
            .max(
                Comparator.comparing((InstanceSummary i) -> i.end().orElse(Instant.MIN))
                    .thenComparing(InstanceSummary::start))
            .map(i -> InstanceOutcome.valueOf(i.status().name()));
    return new WorkflowRuns(running, last);
  }

  /** One batch's reads, done once; the rest is the starter's. Not thread-safe: one pass uses it. */
  private static final class BatchView implements InstanceStarter {
    private final EngineInstanceStarter starter;
    private final Map<String, StoredDefinition> definitions = new HashMap<>();
    private final Map<String, List<InstanceSummary>> instances = new HashMap<>();
    private final Instances tokens;

    BatchView(EngineInstanceStarter starter, List<String> workflows) {
      this.starter = starter;
      TokenMaster master = starter.engine.master();
      this.tokens = starter.engine.instances();
      List<String> names = List.copyOf(new LinkedHashSet<>(workflows));
      List<Query> queries = new ArrayList<>();
      for (String workflow : names) {
        queries.add(Query.prefix(TokenLayout.definition(workflow)));
        // Instance records and waiting jobs; runnable jobs live elsewhere, so this stays small.
        queries.add(Query.prefix(TokenLayout.workflowPrefix(workflow)));
      }
      List<List<Token>> read = master.query(queries);
      for (int i = 0; i < names.size(); i++) {
        String workflow = names.get(i);
        read.get(2 * i).stream()
            .filter(t -> t.name().equals(TokenLayout.definition(workflow)))
            .findFirst()
            .ifPresent(t -> definitions.put(workflow, starter.decode(t)));
        List<InstanceSummary> records = new ArrayList<>();
        for (Token token : read.get(2 * i + 1)) {
          String[] parts = token.name().split("/");
          if (parts.length == 5
              && token.name().equals(TokenLayout.instanceRecord(workflow, parts[3]))) {
            InstanceData data = Json.read(token, InstanceData.class);
            records.add(
                new InstanceSummary(
                    data.workflow,
                    data.instance,
                    InstanceStatus.valueOf(data.status),
                    Instant.ofEpochMilli(data.startMillis),
                    Optional.ofNullable(data.endMillis).map(Instant::ofEpochMilli),
                    data.definitionVersion,
                    data.startedBy,
                    data.params,
                    data.failedJobs,
                    Optional.empty()));
          }
        }
        instances.put(workflow, records);
      }
    }

    @Override
    public Optional<String> start(
        String workflow, Map<String, String> params, List<Token> alongside) {
      return starter.start(workflow, params, alongside);
    }

    @Override
    public Optional<List<Token>> startTokens(
        String workflow, String instanceId, Map<String, String> params) {
      return Optional.ofNullable(definitions.get(workflow))
          .map(stored -> tokens.startTokens(stored, instanceId, starter.startedBy, params));
    }

    @Override
    public boolean buildsTokens() {
      return true;
    }

    @Override
    public List<Token> abortTokens(String workflow, String instance) {
      return starter.abortTokens(workflow, instance);
    }

    @Override
    public WorkflowRuns runs(String workflow) {
      List<InstanceSummary> read = instances.get(workflow);
      return read == null ? starter.runs(workflow) : runsOf(read);
    }
  }
}
