package dev.flipper.workflow.worker;

import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.EngineListener;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.JobNotice;
import dev.flipper.workflow.engine.StatusReader;
import dev.flipper.workflow.mail.Mail;
import dev.flipper.workflow.mail.Mailer;
import dev.flipper.workflow.mail.Notifications;
import dev.flipper.workflow.mail.UiLinks;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The workers' e-mail (Pinball's; docs/workflows.md, "E-mail"), sent by the worker whose engine
 * call caused the event, so once across all workers:
 *
 * <ul>
 *   <li>a job failed for good: to the job's {@code emails}, plus the workflow's at the instance's
 *       first failure;
 *   <li>a job passed its warn time-out (once per attempt): to the job's and the workflow's;
 *   <li>an instance ended: to the workflow's, with a table of its jobs (read from the master on the
 *       mail thread); an aborted instance when it is archived (at once, by a worker's archiver), as
 *       Pinball, because a control operation run from the CLI may have ended it.
 * </ul>
 *
 * {@link Mailer} sends on its own thread: nothing here waits for SMTP or the master. Thread-safe.
 */
public final class MailNotifier implements EngineListener, WarnTimeoutAlert {
  private final Mailer mailer;
  private final Notifications notifications;
  private final StatusReader status;

  /**
   * @param status reads an ended instance's jobs for the instance-end table
   */
  public MailNotifier(Mailer mailer, UiLinks links, StatusReader status) {
    this.mailer = Objects.requireNonNull(mailer, "mailer");
    this.notifications = new Notifications(links);
    this.status = Objects.requireNonNull(status, "status");
  }

  @Override
  public void jobFailed(JobNotice job, boolean firstFailure) {
    List<String> to =
        Notifications.recipients(job.emails(), firstFailure ? job.workflowEmails() : List.of());
    mailer.send(
        notifications.jobFailure(
            attempt(job.workflow(), job.instance(), job.job(), job.execution()), to));
  }

  @Override
  public void warn(ClaimedJob job, Duration warnTimeout) {
    job.startedExecution()
        .ifPresent(
            execution ->
                mailer.send(
                    notifications.timeoutWarning(
                        attempt(job.workflow(), job.instance(), job.job(), execution),
                        warnTimeout,
                        Notifications.recipients(job.emails(), job.workflowEmails()))));
  }

  @Override
  public void instanceEnded(JobNotice lastJob, InstanceStatus ended) {
    if (lastJob.workflowEmails().isEmpty() || ended == InstanceStatus.ABORTED) {
      return; // as Pinball: only a workflow with emails has its instance ends mailed (email.to gets
      // them then too)
    }
    String what = ended + " for workflow " + lastJob.workflow() + " instance " + lastJob.instance();
    mailer.sendLater(what, () -> Optional.of(instanceEnd(lastJob, ended)));
  }

  @Override
  public void instanceArchived(InstanceSummary instance, List<String> workflowEmails) {
    if (instance.status() != InstanceStatus.ABORTED || workflowEmails.isEmpty()) {
      return; // the others were mailed when they ended
    }
    mailer.send(
        notifications.instanceEnd(
            instance.workflow(),
            instance.instance(),
            instance.status().name(),
            instance.start(),
            instance.end().orElse(instance.start()),
            List.of(),
            workflowEmails));
  }

  private Mail instanceEnd(JobNotice lastJob, InstanceStatus ended) {
    String wf = lastJob.workflow();
    String inst = lastJob.instance();
    // Read after the end: every job is settled. Gone only if it was archived already (archiveDelay
    // 0s).
    Optional<InstanceDetail> detail = status.instance(wf, inst);
    ExecutionDetail last = lastJob.execution();
    List<Notifications.JobLine> jobs =
        detail.map(d -> d.jobs().stream().map(MailNotifier::line).toList()).orElse(List.of());
    return notifications.instanceEnd(
        wf,
        inst,
        ended.name(),
        detail.map(d -> d.summary().start()).orElse(last.start()),
        detail.flatMap(d -> d.summary().end()).orElse(last.end().orElse(last.start())),
        jobs,
        lastJob.workflowEmails());
  }

  private static Notifications.JobLine line(JobDetail job) {
    Optional<ExecutionDetail> last = job.lastExecution();
    return new Notifications.JobLine(
        job.name(),
        last.map(ExecutionDetail::start),
        last.flatMap(ExecutionDetail::end),
        job.status().name());
  }

  private static Notifications.Attempt attempt(
      String wf, String inst, String job, ExecutionDetail e) {
    return new Notifications.Attempt(
        wf,
        inst,
        job,
        e.execution(),
        e.command(),
        e.start(),
        e.end(),
        Optional.ofNullable(e.exitCode()),
        Optional.ofNullable(e.endReason()),
        e.logs());
  }
}
