package dev.flipper.workflow.engine.internal;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.definition.WorkflowGraph;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.EventData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts an instance in one modify: the instance record, a waiting token for every job that has
 * parents, and a runnable token for every root job (Pinball wrote start events and let a worker's
 * scan find them). The instance id is the start time in epoch milliseconds, like Pinball's; if that
 * id is taken (two starts in one millisecond), the next millisecond is tried. Thread-safe.
 */
public final class InstanceStarter {
  private static final int MAX_ID_TRIES = 1000;

  private final TokenMaster master;
  private final Clock clock;

  public InstanceStarter(TokenMaster master, Clock clock) {
    this.master = master;
    this.clock = clock;
  }

  /**
   * Starts the instance; {@code alongside} tokens are written in the same modify. A conflict on the
   * instance's own names means the id is taken: the next millisecond is tried. A conflict on an
   * {@code alongside} token is the caller's: it is thrown and nothing is written.
   */
  public String start(
      StoredDefinition stored,
      String startedBy,
      Map<String, String> params,
      List<Token> alongside) {
    WorkflowDefinition definition = stored.definition();
    long now = clock.millis();
    for (int i = 0; i < MAX_ID_TRIES; i++) {
      String instance = Long.toString(now + i);
      List<Token> updates = new ArrayList<>(tokens(stored, instance, now, startedBy, params));
      updates.addAll(alongside);
      try {
        master.modify(new ModifyParams(updates, List.of()));
        return instance;
      } catch (TokenException e) {
        if (!ConflictRetry.isConflict(e) || !idTaken(definition.name(), instance)) {
          throw e;
        }
        // Two starts in one millisecond: an insert over an existing instance record conflicts. Next
        // id.
      }
    }
    throw new IllegalStateException(
        "no free instance id for workflow '"
            + definition.name()
            + "' from "
            + now
            + " to "
            + (now + MAX_ID_TRIES)
            + ": is the clock stuck?");
  }

  /**
   * The tokens (all inserts) that would start instance {@code instance} of {@code stored} now,
   * without writing them: a caller starting several instances in one modify (the scheduler, a batch
   * of due schedules) writes them together. An insert over a taken id fails that modify with
   * VERSION_CONFLICT.
   */
  public List<Token> startTokens(
      StoredDefinition stored, String instance, String startedBy, Map<String, String> params) {
    return tokens(stored, instance, clock.millis(), startedBy, params);
  }

  private boolean idTaken(String wf, String instance) {
    return !master.query(Query.prefix(TokenLayout.instancePrefix(wf, instance))).isEmpty()
        || !master.query(Query.prefix(TokenLayout.runnablePrefix(wf, instance))).isEmpty();
  }

  private static List<Token> tokens(
      StoredDefinition stored,
      String instance,
      long now,
      String startedBy,
      Map<String, String> params) {
    WorkflowDefinition definition = stored.definition();
    String wf = definition.name();
    InstanceData record = new InstanceData();
    record.workflow = wf;
    record.instance = instance;
    record.startMillis = now;
    record.definitionVersion = stored.version();
    record.startedBy = startedBy;
    record.params.putAll(params);
    List<Token> tokens = new ArrayList<>();
    tokens.add(Token.of(TokenLayout.instanceRecord(wf, instance), Json.write(record)));
    WorkflowGraph graph = definition.graph();
    for (JobDefinition job : definition.jobs()) {
      JobData data = jobData(job, graph, wf, instance);
      data.workflowEmails = new ArrayList<>(definition.emails());
      data.params.putAll(params);
      if (job.needs().isEmpty()) {
        data.events.add(EventData.of(TokenLayout.WORKFLOW_START, "start", Map.of()));
        tokens.add(
            Token.of(TokenLayout.runnable(wf, instance, job.name()), Json.write(data))
                .withPriority(data.priority));
      } else {
        data.readyInputs = new ArrayList<>(); // no event yet: the first parents need not look
        tokens.add(
            Token.of(TokenLayout.waiting(wf, instance, job.name()), Json.write(data))
                .withPriority(data.priority));
      }
    }
    return tokens;
  }

  static JobData jobData(JobDefinition job, WorkflowGraph graph, String wf, String instance) {
    JobData data = new JobData();
    data.workflow = wf;
    data.instance = instance;
    data.name = job.name();
    data.type = job.condition() ? "condition" : "shell";
    data.command = job.command();
    data.cleanupCommand = job.cleanup().orElse(null);
    data.inputs =
        job.needs().isEmpty()
            ? new ArrayList<>(List.of(TokenLayout.WORKFLOW_START))
            : new ArrayList<>(job.needs());
    data.outputs = new ArrayList<>(graph.children(job.name()));
    data.emails = new ArrayList<>(job.emails());
    data.maxAttempts = job.maxAttempts();
    data.retryDelayMillis = job.retryDelay().toMillis();
    data.warnTimeoutMillis = job.warnTimeout().map(Duration::toMillis).orElse(null);
    data.abortTimeoutMillis = job.abortTimeout().map(Duration::toMillis).orElse(null);
    data.disabled = job.disabled();
    data.priority = graph.priority(job.name());
    return data;
  }
}
