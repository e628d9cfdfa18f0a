package dev.flipper.workflow.ui.queue;

import dev.flipper.queue.JobInfo;
import dev.flipper.workflow.ui.view.Banner;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * The queue dashboard's page models, also its JSON ({@code /api/queues...}, docs/ui.md). Immutable
 * records; times are ISO-8601 UTC text or null.
 */
public final class QueueViews {
  private QueueViews() {}

  /**
   * Jobs of one queue (and priority) by state.
   *
   * @param pending PENDING jobs due now
   * @param future PENDING jobs whose run-after is still ahead
   */
  public record Counts(int pending, int future, int inProgress, int succeeded, int failed) {
    public static final Counts ZERO = new Counts(0, 0, 0, 0, 0);

    public Counts plus(Counts o) {
      return new Counts(
          pending + o.pending,
          future + o.future,
          inProgress + o.inProgress,
          succeeded + o.succeeded,
          failed + o.failed);
    }

    /** Every job the store holds (finished ones until their GC). */
    public long total() {
      return (long) pending + future + inProgress + succeeded + failed;
    }
  }

  public record PriorityCounts(int priority, Counts counts) {}

  /**
   * Rates estimated by the UI from successive counts (the servers expose no rates over Thrift):
   * {@code null} until two counts {@code windowSeconds} apart exist.
   *
   * @param enqueuedPerSecond growth of all jobs of the queue; undercounts while finished jobs are
   *     deleted (GC)
   * @param finishedPerSecond growth of SUCCEEDED + FAILED; undercounts likewise
   */
  public record Rates(Double enqueuedPerSecond, Double finishedPerSecond, Long windowSeconds) {
    public static final Rates UNKNOWN = new Rates(null, null, null);
  }

  /**
   * One queue: paused state, rate limit, counts in total and per priority, estimated rates.
   *
   * @param rateLimit dequeues per second for the cluster from the rate-limit file the UI reads;
   *     null = not limited there, or no file (see {@link QueuesPage#rateLimits()})
   */
  public record QueueRow(
      String name,
      boolean paused,
      Double rateLimit,
      Counts total,
      List<PriorityCounts> priorities,
      Rates rates) {
    public QueueRow {
      priorities = List.copyOf(priorities);
    }
  }

  /**
   * The dashboard: every queue.
   *
   * @param servers the configured queue servers as written
   * @param problem null when the servers answered, else why the dashboard is empty
   * @param rateLimits where the rate limits come from, or why none are shown (they live in each
   *     server's file)
   */
  public record QueuesPage(
      Banner banner, String servers, String problem, List<QueueRow> queues, String rateLimits) {
    public QueuesPage {
      queues = List.copyOf(queues);
    }
  }

  /**
   * One job as lookup and scan report it.
   *
   * @param body the body as UTF-8 text (invalid bytes as U+FFFD), cut at {@link #BODY_PREVIEW}
   *     characters in scans; null when not read
   * @param bodyBytes the body's size in bytes; -1 when not read
   */
  public record JobRow(
      String descriptor,
      String queue,
      String state,
      int priority,
      int attemptsAllowed,
      int attemptsRemaining,
      String customStatus,
      String createdAt,
      String runAfter,
      String updatedAt,
      String claim,
      String body,
      int bodyBytes) {
    public static final int BODY_PREVIEW = 200;

    static JobRow of(JobInfo job, int maxBodyChars) {
      String body = job.body() == null ? null : text(job.body());
      if (body != null && body.length() > maxBodyChars) {
        body = body.substring(0, maxBodyChars) + "…";
      }
      return new JobRow(
          job.descriptor().toString(),
          job.descriptor().queue(),
          job.state().name(),
          job.descriptor().priority(),
          job.attemptsAllowed(),
          job.attemptsRemaining(),
          job.customStatus(),
          iso(job.createdAt()),
          iso(job.runAfter()),
          iso(job.updatedAt()),
          job.claimDescriptor(),
          body,
          job.body() == null ? -1 : job.body().length);
    }

    private static String text(byte[] body) {
      try {
        return StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE)
            .decode(ByteBuffer.wrap(body))
            .toString();
      } catch (CharacterCodingException e) {
        return new String(body, StandardCharsets.UTF_8);
      }
    }
  }

  /**
   * One page of a scan and what selected it.
   *
   * @param state the scanned state (PENDING, IN_PROGRESS, SUCCEEDED, FAILED)
   * @param priority null = every priority
   * @param future PENDING jobs not yet due instead of due ones
   * @param filter a Java regular expression searched in each body; "" = none
   * @param continuation where this page started ({@code 0} = the start)
   * @param next the continuation of the next page; null at the end
   */
  public record Scan(
      String state,
      Integer priority,
      boolean future,
      String filter,
      int limit,
      String continuation,
      String next,
      List<JobRow> jobs) {
    public Scan {
      jobs = List.copyOf(jobs);
    }
  }

  /** A queue's page: its counts and one page of a scan. */
  public record QueuePage(Banner banner, String servers, QueueRow queue, Scan scan) {}

  /** A job looked up by descriptor, with its whole body. */
  public record JobPage(Banner banner, String descriptor, JobRow job) {}

  static String iso(Instant time) {
    return time == null ? null : time.toString();
  }

  /**
   * The page of a queue action: its confirmation question, what it changed, or why it was refused.
   *
   * @param question set while asking for confirmation (nothing changed yet)
   * @param result set when it ran
   * @param refusal set when it was refused (nothing changed)
   */
  public record ActionPage(
      Banner banner,
      String operation,
      QueueActions.Request request,
      String back,
      String question,
      QueueActions.Result result,
      String refusal) {
    public boolean confirming() {
      return question != null;
    }
  }
}
