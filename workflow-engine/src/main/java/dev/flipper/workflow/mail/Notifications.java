package dev.flipper.workflow.mail;

import dev.flipper.text.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The four notification messages, as plain text and HTML with links into the UI (Pinball's e-mails;
 * docs/workflows.md, "E-mail", and docs/scheduler.md, "E-mail"): job failure, time-out warning,
 * instance end and too many instances. Everything taken from a workflow is escaped in the HTML
 * part. Immutable and thread-safe.
 */
public final class Notifications {

  /**
   * One finished (or running) attempt of a job. {@code end} and {@code exitCode} are empty while it
   * runs; {@code exitCode} also when it ended without one, then {@code endReason} says why ({@code
   * lease lost}).
   */
  public record Attempt(
      String workflow,
      String instance,
      String job,
      int execution,
      String command,
      Instant start,
      Optional<Instant> end,
      Optional<Integer> exitCode,
      Optional<String> endReason,
      Map<String, String> logs) {
    public Attempt {
      logs = Map.copyOf(logs);
    }
  }

  /** A job's line in the instance-end table. */
  public record JobLine(
      String job, Optional<Instant> lastStart, Optional<Instant> lastEnd, String status) {}

  private final UiLinks links;

  public Notifications(UiLinks links) {
    this.links = Objects.requireNonNull(links, "links");
  }

  /**
   * Recipients of a message: each address once, in the order first named (for example the job's,
   * then the workflow's).
   */
  @SafeVarargs
  public static List<String> recipients(List<String>... lists) {
    Set<String> all = new LinkedHashSet<>();
    for (List<String> list : lists) {
      all.addAll(list);
    }
    return List.copyOf(all);
  }

  /**
   * A job failed for good. Pinball sends it to the job's e-mails, plus the workflow's at the first
   * failure.
   */
  public Mail jobFailure(Attempt attempt, List<String> to) {
    String subject =
        "Workflow "
            + attempt.workflow()
            + "'s job "
            + attempt.job()
            + attempt
                .exitCode()
                .map(code -> " finished with exit code " + code)
                .orElse(" failed (" + attempt.endReason().orElse("no exit code") + ")");
    return new Mail(to, subject, text(attempt, true), html(attempt, true));
  }

  /** An attempt ran longer than its warnTimeout (sent once per attempt). */
  public Mail timeoutWarning(Attempt attempt, Duration warnTimeout, List<String> to) {
    String subject =
        "Workflow " + attempt.workflow() + "'s job " + attempt.job() + " exceeded timeout";
    String note = "Running for more than " + Readable.duration(warnTimeout) + ".\n";
    return new Mail(
        to,
        subject,
        note + text(attempt, false),
        "<p>" + Html.escape(note.strip()) + "</p>\n" + html(attempt, false));
  }

  /**
   * An instance ended: {@code status} is SUCCESS, FAILURE or ABORTED; jobs are listed by their last
   * start.
   */
  public Mail instanceEnd(
      String workflow,
      String instance,
      String status,
      Instant start,
      Instant end,
      List<JobLine> jobs,
      List<String> to) {
    List<JobLine> ordered =
        jobs.stream()
            .sorted(Comparator.comparing((JobLine j) -> j.lastStart().orElse(Instant.MAX)))
            .toList();
    String url = links.instance(workflow, instance);
    StringBuilder text =
        new StringBuilder()
            .append("Workflow: ")
            .append(workflow)
            .append('\n')
            .append("Instance: ")
            .append(instance)
            .append(" (")
            .append(url)
            .append(")\n")
            .append("Status: ")
            .append(status)
            .append('\n')
            .append("Start: ")
            .append(Readable.time(start))
            .append('\n')
            .append("End: ")
            .append(Readable.time(end))
            .append('\n')
            .append("Run time: ")
            .append(Readable.duration(Duration.between(start, end)))
            .append("\n\nJobs:\n");
    StringBuilder html =
        new StringBuilder()
            .append("<p>Workflow ")
            .append(Html.link(links.workflow(workflow), workflow))
            .append(", instance ")
            .append(Html.link(url, instance))
            .append(": <b>")
            .append(Html.escape(status))
            .append("</b></p>\n<p>Start ")
            .append(Readable.time(start))
            .append(", end ")
            .append(Readable.time(end))
            .append(", run time ")
            .append(Readable.duration(Duration.between(start, end)))
            .append("</p>\n<table border=\"1\">\n")
            .append(
                "<tr><th>job</th><th>last start</th><th>last end</th><th>run time</th><th>status</th></tr>\n");
    for (JobLine job : ordered) {
      String runTime =
          job.lastStart().isPresent() && job.lastEnd().isPresent()
              ? Readable.duration(Duration.between(job.lastStart().get(), job.lastEnd().get()))
              : "";
      text.append("  ")
          .append(job.job())
          .append("  ")
          .append(job.status())
          .append("  ")
          .append(job.lastStart().map(Readable::time).orElse("-"))
          .append("  ")
          .append(job.lastEnd().map(Readable::time).orElse("-"))
          .append('\n');
      html.append("<tr><td>")
          .append(Html.link(links.job(workflow, instance, job.job()), job.job()))
          .append("</td><td>")
          .append(job.lastStart().map(Readable::time).orElse(""))
          .append("</td><td>")
          .append(job.lastEnd().map(Readable::time).orElse(""))
          .append("</td><td>")
          .append(runTime)
          .append("</td><td>")
          .append(Html.escape(job.status()))
          .append("</td></tr>\n");
    }
    html.append("</table>\n");
    return new Mail(to, status + " for workflow " + workflow, text.toString(), html.toString());
  }

  /**
   * The scheduler did not start an instance because {@code running} (at least {@code maxRunning})
   * run.
   */
  public Mail tooManyInstances(
      String workflow, int running, int maxRunning, Instant slot, List<String> to) {
    String subject = "Too many (" + running + ") instances running for workflow " + workflow;
    String what =
        "The run of workflow "
            + workflow
            + " due at "
            + Readable.time(slot)
            + " has not started: "
            + running
            + " instances run and maxRunning is "
            + maxRunning
            + ". It starts when fewer run.";
    String url = links.workflow(workflow);
    return new Mail(
        to,
        subject,
        what + "\n\nInstances: " + url + "\n",
        "<p>"
            + Html.escape(what)
            + "</p>\n<p>"
            + Html.link(url, "Instances of " + workflow)
            + "</p>\n");
  }

  private String text(Attempt a, boolean finished) {
    StringBuilder text =
        new StringBuilder()
            .append("Workflow: ")
            .append(a.workflow())
            .append(" (")
            .append(links.workflow(a.workflow()))
            .append(")\n")
            .append("Instance: ")
            .append(a.instance())
            .append(" (")
            .append(links.instance(a.workflow(), a.instance()))
            .append(")\n")
            .append("Job: ")
            .append(a.job())
            .append(" (")
            .append(links.job(a.workflow(), a.instance(), a.job()))
            .append(")\n")
            .append("Execution: ")
            .append(a.execution())
            .append('\n')
            .append("Command: ")
            .append(a.command())
            .append('\n')
            .append("Start: ")
            .append(Readable.time(a.start()))
            .append('\n');
    if (finished) {
      a.end()
          .ifPresent(
              end ->
                  text.append("End: ")
                      .append(Readable.time(end))
                      .append('\n')
                      .append("Run time: ")
                      .append(Readable.duration(Duration.between(a.start(), end)))
                      .append('\n'));
      text.append("Exit code: ").append(a.exitCode().map(String::valueOf).orElse("?")).append('\n');
      a.endReason().ifPresent(reason -> text.append("End reason: ").append(reason).append('\n'));
    }
    a.logs().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            log ->
                text.append("Log ")
                    .append(log.getKey())
                    .append(": ")
                    .append(log.getValue())
                    .append('\n'));
    return text.toString();
  }

  private String html(Attempt a, boolean finished) {
    StringBuilder html = new StringBuilder("<table>\n");
    row(html, "Workflow", Html.link(links.workflow(a.workflow()), a.workflow()));
    row(html, "Instance", Html.link(links.instance(a.workflow(), a.instance()), a.instance()));
    row(html, "Job", Html.link(links.job(a.workflow(), a.instance(), a.job()), a.job()));
    row(html, "Execution", Integer.toString(a.execution()));
    row(html, "Command", "<code>" + Html.escape(a.command()) + "</code>");
    row(html, "Start", Readable.time(a.start()));
    if (finished) {
      a.end()
          .ifPresent(
              end -> {
                row(html, "End", Readable.time(end));
                row(html, "Run time", Readable.duration(Duration.between(a.start(), end)));
              });
      int code = a.exitCode().orElse(-1);
      row(
          html,
          "Exit code",
          "<span style=\"color:"
              + (code == 0 ? "green" : "red")
              + "\">"
              + a.exitCode().map(String::valueOf).orElse("?")
              + "</span>");
      a.endReason().ifPresent(reason -> row(html, "End reason", Html.escape(reason)));
    }
    a.logs().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(log -> row(html, "Log", Html.link(log.getValue(), log.getKey())));
    return html.append("</table>\n").toString();
  }

  private static void row(StringBuilder html, String name, String valueHtml) {
    html.append("<tr><th align=\"left\">")
        .append(name)
        .append("</th><td>")
        .append(valueHtml)
        .append("</td></tr>\n");
  }
}
