package dev.flipper.workflow.engine.internal;

import dev.flipper.token.Token;
import dev.flipper.workflow.engine.EngineListener;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobNotice;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the engine's {@link EngineListener} what a call decided; what the listener throws is
 * logged. Thread-safe.
 */
public final class Notices {
  private static final Logger LOG = LoggerFactory.getLogger(Notices.class);

  private final EngineListener listener;

  public Notices(EngineListener listener) {
    this.listener = listener;
  }

  /** The job (its last execution closed) failed for good. */
  public void jobFailed(JobData data, boolean firstFailure) {
    safely("job failure", () -> listener.jobFailed(notice(data), firstFailure));
  }

  /** If present, {@code ended} is the status this call ended the job's instance with. */
  public void instanceEnded(JobData data, Optional<InstanceStatus> ended) {
    ended.ifPresent(
        status -> safely("instance end", () -> listener.instanceEnded(notice(data), status)));
  }

  /**
   * The instance of {@code record} was archived with these tokens (its jobs name the workflow's
   * emails).
   */
  public void instanceArchived(InstanceData record, List<Token> tokens) {
    List<String> emails =
        tokens.stream()
            .filter(t -> t.name().contains("/job/"))
            .map(t -> Json.read(t, JobData.class).workflowEmails)
            .findFirst()
            .orElse(List.of());
    safely("archive", () -> listener.instanceArchived(record.toSummary(), emails));
  }

  private static JobNotice notice(JobData data) {
    return new JobNotice(
        data.workflow,
        data.instance,
        data.name,
        data.emails,
        data.workflowEmails,
        data.params,
        data.lastExecution().toDetail());
  }

  private static void safely(String what, Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.warn("the engine listener failed on a {}: {}", what, e.toString());
    }
  }
}
