package dev.flipper.workflow.ui.queue;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.client.QueueClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue actions of the dashboard ({@code POST /actions/queue/<op>}, docs/ui.md), each the
 * queue-client call that {@code flipper queue-tool} makes: pause, resume, retry (failed jobs),
 * retry-job (one failed job, by descriptor), delete-job (one, by descriptor), delete (by state).
 * {@link #question} says what a destructive one would change, for its confirmation page.
 * Thread-safe.
 */
public final class QueueActions {
  /** Delete or rerun jobs: the pages ask first. */
  public static final Set<String> DESTRUCTIVE =
      Set.of("retry", "retry-job", "delete", "delete-job");

  private static final String OPERATIONS = "pause, resume, retry, retry-job, delete, delete-job";

  /** Most jobs one retry or delete click moves, per priority. */
  static final int MAX_JOBS = 100_000;

  private static final Logger log = LoggerFactory.getLogger(QueueActions.class);

  /**
   * What an action applies to.
   *
   * @param queue every action but retry-job and delete-job
   * @param job retry-job and delete-job: the descriptor
   * @param state delete: the state whose jobs go
   * @param priority retry and delete: one priority, null = all
   * @param filter delete: only jobs whose body matches this Java regular expression; null/"" = all
   */
  public record Request(String queue, String job, String state, Integer priority, String filter) {}

  /** What an action changed, one line per change; {@code changed} 0 = nothing was to be done. */
  public record Result(String operation, String target, int changed, List<String> changes) {
    public Result {
      changes = List.copyOf(changes);
    }
  }

  private final QueueDashboard dashboard;

  public QueueActions(QueueDashboard dashboard) {
    this.dashboard = dashboard;
  }

  /** The confirmation question of a destructive action, with how many jobs it touches now. */
  public String question(String operation, Request r) {
    QueueClient c = dashboard.client();
    return switch (operation) {
      case "retry" ->
          "Retry "
              + count(c, queue(r), JobState.FAILED, r.priority(), null)
              + " failed job(s) of queue "
              + queue(r)
              + priorityText(r)
              + "? They become PENDING with one attempt.";
      case "delete" -> {
        JobState state = QueueDashboard.state(required(r.state(), "state"));
        String filter = filter(r);
        yield "Delete "
            + count(c, queue(r), state, r.priority(), filter)
            + " "
            + state
            + " job(s) of queue "
            + queue(r)
            + priorityText(r)
            + (filter == null ? "" : " whose body matches /" + filter + "/")
            + "? This cannot be undone.";
      }
      case "retry-job" -> {
        JobState state = stateOf(c, job(r));
        yield "Retry job "
            + job(r)
            + " ("
            + (state == null ? "not found" : state)
            + ")? It becomes PENDING, runnable "
            + "now, with one attempt; other failed jobs stay FAILED.";
      }
      case "delete-job" -> "Delete job " + job(r) + "? This cannot be undone.";
      default -> throw unknown(operation);
    };
  }

  /** Runs the action for {@code user}; logs who changed what. */
  public Result run(String operation, Request r, String user) {
    Result result = dispatch(operation, r, dashboard.client());
    log.info(
        "ui queue action {} by {} on {}: {} change(s) {}",
        operation,
        user,
        result.target(),
        result.changed(),
        result.changes());
    return result;
  }

  private Result dispatch(String operation, Request r, QueueClient c) {
    return switch (operation) {
      case "pause", "resume" -> {
        String queue = queue(r);
        boolean pause = operation.equals("pause");
        boolean was = c.pausedQueues().contains(queue);
        if (!c.queueNames().contains(queue)) {
          throw new IllegalArgumentException("no queue '" + queue + "'");
        }
        c.setQueuePaused(queue, pause);
        yield new Result(
            operation,
            "queue " + queue,
            was == pause ? 0 : 1,
            was == pause
                ? List.of("queue " + queue + " was already " + (pause ? "paused" : "running"))
                : List.of(
                    "queue "
                        + queue
                        + ": "
                        + (pause
                            ? "running → paused (dequeues return no job on every server)"
                            : "paused → running")));
      }
      case "retry" -> {
        String queue = queue(r);
        List<String> changes = new ArrayList<>();
        int total = 0;
        for (int p : priorities(r, queue)) {
          int moved = c.retryFailed(new RetryFailedParams(queue, p, 1, null, MAX_JOBS));
          total += moved;
          if (moved > 0) {
            changes.add("priority " + p + ": " + moved + " job(s) FAILED → PENDING");
          }
        }
        yield new Result(operation, "queue " + queue + priorityText(r), total, changes);
      }
      case "delete" -> {
        String queue = queue(r);
        JobState state = QueueDashboard.state(required(r.state(), "state"));
        List<String> changes = new ArrayList<>();
        int total = 0;
        for (int p : priorities(r, queue)) {
          int deleted = c.deleteJobs(new DeleteJobsParams(queue, state, p, filter(r), MAX_JOBS));
          total += deleted;
          if (deleted > 0) {
            changes.add("priority " + p + ": " + deleted + " " + state + " job(s) deleted");
          }
        }
        yield new Result(operation, "queue " + queue + priorityText(r), total, changes);
      }
      case "retry-job" -> {
        JobDescriptor job = job(r);
        boolean retried = c.retryJob(job, 1);
        // Only a refusal looks the job up, to say whether it is missing or in another state.
        JobState state = retried ? JobState.PENDING : stateOf(c, job);
        String change =
            retried
                ? "job " + job + ": FAILED → PENDING (runnable now, 1 attempt)"
                : "job "
                    + job
                    + " was not retried: "
                    + (state == null ? "it does not exist" : "it is " + state + ", not FAILED");
        yield new Result(operation, "job " + job, retried ? 1 : 0, List.of(change));
      }
      case "delete-job" -> {
        JobDescriptor job = job(r);
        JobInfo before = c.lookup(List.of(job), false).get(job);
        boolean deleted = c.deleteJob(job);
        yield new Result(
            operation,
            "job " + job,
            deleted ? 1 : 0,
            deleted
                ? List.of(
                    "job " + job + (before == null ? "" : " (" + before.state() + ")") + " deleted")
                : List.of("job " + job + " did not exist"));
      }
      default -> throw unknown(operation);
    };
  }

  /** The job's state, null if it does not exist. */
  private static JobState stateOf(QueueClient c, JobDescriptor job) {
    JobInfo info = c.lookup(List.of(job), false).get(job);
    return info == null ? null : info.state();
  }

  private List<Integer> priorities(Request r, String queue) {
    return r.priority() != null ? List.of(r.priority()) : dashboard.priorities(queue);
  }

  private int count(QueueClient c, String queue, JobState state, Integer priority, String filter) {
    return c.count(new CountParams(queue, state, priority, false, filter))
        + (state == JobState.PENDING
            ? c.count(new CountParams(queue, state, priority, true, filter))
            : 0);
  }

  private static String priorityText(Request r) {
    return r.priority() == null ? " (all priorities)" : " (priority " + r.priority() + ")";
  }

  private static String filter(Request r) {
    return r.filter() == null || r.filter().isEmpty() ? null : QueueDashboard.regex(r.filter());
  }

  private static String queue(Request r) {
    return required(r.queue(), "queue");
  }

  private static JobDescriptor job(Request r) {
    return QueueDashboard.descriptor(r.job());
  }

  private static String required(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("'" + name + "' is required");
    }
    return value;
  }

  private static RuntimeException unknown(String operation) {
    return new UnknownActionException(
        "no queue action '" + operation + "'; actions: " + OPERATIONS);
  }

  /** An action that does not exist: 404. */
  public static final class UnknownActionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownActionException(String message) {
      super(message);
    }
  }
}
