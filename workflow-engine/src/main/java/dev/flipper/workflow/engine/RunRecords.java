package dev.flipper.workflow.engine;

import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunRecord;
import dev.flipper.token.Token;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The run history's rows of an instance: from its read model (active instances) or from the tokens
 * being archived. Stateless.
 */
public final class RunRecords {
  private RunRecords() {}

  /** The run of an instance as the history keeps it; a held instance reads PAUSED or DRAINED. */
  public static RunRecord run(InstanceSummary summary) {
    return new RunRecord(
        summary.workflow(),
        summary.instance(),
        summary.shownStatus().name(),
        summary.startedBy(),
        summary.start().toEpochMilli(),
        summary.end().map(Instant::toEpochMilli).orElse(null),
        summary.params(),
        summary.failedJobs());
  }

  /**
   * One execution as the history keeps it.
   *
   * @param openStatus the status of an execution that has not ended: RUNNING in an active instance,
   *     ABORTED in an archived one (its process never reported an end)
   */
  public static ExecutionRecord execution(
      String workflow, String instance, String job, ExecutionDetail e, String openStatus) {
    return new ExecutionRecord(
        workflow,
        instance,
        job,
        e.execution(),
        e.attempt(),
        status(e, openStatus),
        e.start().toEpochMilli(),
        e.end().map(Instant::toEpochMilli).orElse(null),
        e.exitCode(),
        e.worker(),
        e.host(),
        e.endReason(),
        e.logs());
  }

  /** Every execution of every job of an instance, as the history keeps them. */
  public static List<ExecutionRecord> executions(InstanceDetail detail, String openStatus) {
    List<ExecutionRecord> executions = new ArrayList<>();
    InstanceSummary summary = detail.summary();
    for (JobDetail job : detail.jobs()) {
      for (ExecutionDetail e : job.executions()) {
        executions.add(
            execution(summary.workflow(), summary.instance(), job.name(), e, openStatus));
      }
    }
    return executions;
  }

  /**
   * The history of an instance from the tokens about to be archived: its record and the executions
   * in its job tokens. Empty when the tokens hold no instance record.
   *
   * @throws RuntimeException from {@link Json#read} if the record or a job token does not parse
   */
  public static Optional<RunArchive> archive(String workflow, String instance, List<Token> tokens) {
    String recordName = TokenLayout.instanceRecord(workflow, instance);
    String waiting = TokenLayout.waitingPrefix(workflow, instance);
    String runnable = TokenLayout.runnablePrefix(workflow, instance);
    RunRecord run = null;
    List<ExecutionRecord> executions = new ArrayList<>();
    for (Token token : tokens) {
      if (token.name().equals(recordName)) {
        run = run(Json.read(token, InstanceData.class).toSummary());
      } else if (token.name().startsWith(waiting) || token.name().startsWith(runnable)) {
        JobData job = Json.read(token, JobData.class);
        for (ExecutionData e : job.history) {
          executions.add(execution(workflow, instance, job.name, e.toDetail(), "ABORTED"));
        }
      }
    }
    return run == null ? Optional.empty() : Optional.of(new RunArchive(run, executions));
  }

  private static String status(ExecutionDetail e, String openStatus) {
    if (ExecutionData.DISABLED_INFO.equals(e.command())) {
      return "DISABLED";
    }
    if (e.running()) {
      return openStatus;
    }
    return e.exitCode() != null && e.exitCode() == 0 ? "SUCCESS" : "FAILURE";
  }
}
