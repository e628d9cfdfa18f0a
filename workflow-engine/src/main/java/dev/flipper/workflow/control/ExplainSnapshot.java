package dev.flipper.workflow.control;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything {@link Explainer} looks at, read at one moment: the instance's tokens (record, jobs,
 * events), the signals of its three levels, the workers' heartbeats, and for a workflow its
 * schedule and instances. Plain data, so the explanation is a pure function of it. Immutable.
 *
 * @param instance empty when the workflow itself is explained (why no new instance starts)
 * @param jobs the instance's waiting and runnable job tokens
 * @param events the events waiting in the inputs of the instance's jobs
 * @param signals global, workflow and instance signals
 * @param instances the workflow's active instances (only read for a workflow)
 */
public record ExplainSnapshot(
    Instant now,
    String workflow,
    Optional<String> instance,
    Optional<Token> instanceRecord,
    List<Token> jobs,
    List<Token> events,
    List<Token> signals,
    List<Heartbeat> workers,
    Optional<Token> schedule,
    List<InstanceSummary> instances) {
  public ExplainSnapshot {
    jobs = List.copyOf(jobs);
    events = List.copyOf(events);
    signals = List.copyOf(signals);
    workers = List.copyOf(workers);
    instances = List.copyOf(instances);
  }

  /**
   * Reads the snapshot of an instance (or, with {@code instance} empty, of a workflow): one batch
   * of queries.
   */
  public static ExplainSnapshot read(
      WorkflowEngine engine, Clock clock, String workflow, Optional<String> instance) {
    TokenMaster master = engine.master();
    String inst = instance.orElse(null);
    String scheduleName = ScheduleTokens.name(workflow);
    List<Query> queries =
        new ArrayList<>(
            List.of(
                Query.prefix(TokenLayout.globalSignalPrefix()),
                Query.prefix(TokenLayout.workflowSignalPrefix(workflow)),
                Query.prefix(Heartbeats.PREFIX),
                Query.prefix(scheduleName)));
    if (inst != null) {
      queries.add(Query.prefix(TokenLayout.instanceSignalPrefix(workflow, inst)));
      queries.add(Query.prefix(TokenLayout.instanceRecord(workflow, inst)));
      queries.add(Query.prefix(TokenLayout.waitingPrefix(workflow, inst)));
      queries.add(Query.prefix(TokenLayout.runnablePrefix(workflow, inst)));
      queries.add(Query.prefix(TokenLayout.instancePrefix(workflow, inst) + "input/"));
    }
    List<List<Token>> read = master.query(queries);
    List<Token> signals = new ArrayList<>(read.get(0));
    signals.addAll(read.get(1));
    Optional<Token> schedule =
        read.get(3).stream().filter(t -> t.name().equals(scheduleName)).findFirst();
    if (inst == null) {
      return new ExplainSnapshot(
          clock.instant(),
          workflow,
          instance,
          Optional.empty(),
          List.of(),
          List.of(),
          signals,
          Heartbeats.parse(read.get(2)).items(),
          schedule,
          engine.status().instances(workflow));
    }
    signals.addAll(read.get(4));
    String recordName = TokenLayout.instanceRecord(workflow, inst);
    Optional<Token> record =
        read.get(5).stream().filter(t -> t.name().equals(recordName)).findFirst();
    List<Token> jobs = new ArrayList<>(read.get(6));
    jobs.addAll(read.get(7));
    return new ExplainSnapshot(
        clock.instant(),
        workflow,
        instance,
        record,
        jobs,
        read.get(8),
        signals,
        Heartbeats.parse(read.get(2)).items(),
        schedule,
        List.of());
  }
}
