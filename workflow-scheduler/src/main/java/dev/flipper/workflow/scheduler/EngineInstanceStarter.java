package dev.flipper.workflow.scheduler;

import dev.flipper.token.Token;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.engine.internal.Json;
import dev.flipper.workflow.engine.internal.SignalData;
import dev.flipper.workflow.engine.internal.TokenLayout;
import dev.flipper.workflow.scheduler.overrun.InstanceOutcome;
import dev.flipper.workflow.scheduler.overrun.WorkflowRuns;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scheduler's view of the workflow engine: starts instances with {@code Instances.start(..., alongside)},
 * or builds an instance's tokens for a batch of starts in one modify ({@code Instances.startTokens}), reads running
 * instances from the engine's status model, and builds ABORT signals. Thread-safe.
 *
 * <p>Two limits of what the engine offers today: only active (not yet archived) instances are visible, so
 * DELAY_UNTIL_SUCCESS stops waiting on a failed instance once it is archived (after {@code workers.archiveDelay},
 * 12 h by default); and the ABORT signal is written with the engine's internal token layout until the control
 * operations publish a way to write signals.
 */
public final class EngineInstanceStarter implements InstanceStarter {
  private final WorkflowEngine engine;
  private final Clock clock;

  public EngineInstanceStarter(WorkflowEngine engine, Clock clock) {
    this.engine = engine;
    this.clock = clock;
  }

  /** A starter over an engine of its own on {@code master}. */
  public static EngineInstanceStarter over(dev.flipper.token.TokenMaster master, Clock clock) {
    return new EngineInstanceStarter(WorkflowEngine.builder(master).clock(clock).build(), clock);
  }

  @Override
  public Optional<String> start(String workflow, Map<String, String> params, List<Token> alongside) {
    if (engine.definitions().get(workflow).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(engine.instances().start(workflow, "scheduler", params, alongside));
  }

  /** The engine's tokens for the instance ({@code Instances.startTokens}), so a claimed batch fires in one modify. */
  @Override
  public Optional<List<Token>> startTokens(String workflow, String instanceId, Map<String, String> params) {
    return engine.instances().startTokens(workflow, instanceId, "scheduler", params);
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
    return List.of(Token.of(TokenLayout.instanceSignal(workflow, instance, SignalAction.ABORT), Json.write(signal)));
  }

  @Override
  public WorkflowRuns runs(String workflow) {
    List<InstanceSummary> instances = engine.status().instances(workflow);
    List<String> running = instances.stream().filter(i -> i.status() == InstanceStatus.RUNNING)
        .map(InstanceSummary::instance).toList();
    Optional<InstanceOutcome> last = instances.stream().filter(i -> i.status().isFinished())
        .max(Comparator.comparing((InstanceSummary i) -> i.end().orElse(Instant.MIN))
            .thenComparing(InstanceSummary::start))
        .map(i -> InstanceOutcome.valueOf(i.status().name()));
    return new WorkflowRuns(running, last);
  }
}
