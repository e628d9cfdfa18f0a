package dev.flipper.workflow.ui.queue;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueClientException;
import dev.flipper.workflow.ui.queue.QueueViews.Counts;
import dev.flipper.workflow.ui.queue.QueueViews.JobPage;
import dev.flipper.workflow.ui.queue.QueueViews.JobRow;
import dev.flipper.workflow.ui.queue.QueueViews.PriorityCounts;
import dev.flipper.workflow.ui.queue.QueueViews.QueuePage;
import dev.flipper.workflow.ui.queue.QueueViews.QueueRow;
import dev.flipper.workflow.ui.queue.QueueViews.QueuesPage;
import dev.flipper.workflow.ui.queue.QueueViews.Scan;
import dev.flipper.workflow.ui.view.Banner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads the queue servers for the dashboard over Thrift (queue-client): queues with counts per
 * state and priority, paused state, estimated rates, job lookup and paged scans. Each call asks the
 * servers anew; the number of priority levels (not reported by the protocol) is probed once.
 * Failures come out as the client's {@link QueueClientException}s, bad input as {@link
 * IllegalArgumentException}. Thread-safe.
 */
public final class QueueDashboard implements AutoCloseable {
  /** PinLater priorities are one byte. */
  private static final int MAX_PRIORITIES = 127;

  static final int MAX_SCAN_LIMIT = 500;

  private final QueueServers servers;
  private final QueueClient client;
  private final Executor executor;
  private final RateSampler rates;
  private final RateLimits rateLimits;
  private volatile int priorityLevels;

  /**
   * @param client null when no queue server is configured: the pages then say how to configure one
   */
  public QueueDashboard(
      QueueServers servers,
      RateLimits rateLimits,
      QueueClient client,
      Executor executor,
      Clock clock) {
    this.servers = servers;
    this.rateLimits = rateLimits;
    this.client = client;
    this.executor = executor;
    this.rates = new RateSampler(clock);
  }

  public boolean configured() {
    return client != null;
  }

  QueueClient client() {
    return requireClient();
  }

  /** Every queue with its counts, paused state and rates, by name. */
  public QueuesPage queues(Banner banner) {
    if (client == null) {
      return new QueuesPage(
          banner,
          "",
          "no queue servers configured: set ui.queueServers (host:port list) or "
              + "ui.queueServerSetFile (docs/configuration.md)",
          List.of(),
          rateLimits.describe());
    }
    List<String> names = client.queueNames().stream().sorted().toList();
    Set<String> paused = client.pausedQueues();
    Map<String, Double> limits = rateLimits.current();
    List<CompletableFuture<QueueRow>> rows = new ArrayList<>();
    for (String name : names) {
      rows.add(
          CompletableFuture.supplyAsync(
              () -> rowUnlessDeleted(name, paused.contains(name), limits.get(name)), executor));
    }
    rates.retain(names);
    return new QueuesPage(
        banner,
        servers.describe(),
        null,
        rows.stream().map(QueueDashboard::join).filter(Objects::nonNull).toList(),
        rateLimits.describe());
  }

  /**
   * One queue's counts and one page of its jobs in {@code state} (and {@code priority}, null =
   * all).
   */
  public QueuePage queue(
      Banner banner,
      String queue,
      String state,
      Integer priority,
      boolean future,
      String filter,
      String continuation,
      int limit) {
    QueueClient c = requireClient();
    JobState jobState = state(state == null || state.isBlank() ? "PENDING" : state);
    String regex = filter == null || filter.isEmpty() ? null : regex(filter);
    if (limit < 1 || limit > MAX_SCAN_LIMIT) {
      throw new IllegalArgumentException("'limit' must be 1.." + MAX_SCAN_LIMIT + ", got " + limit);
    }
    String from = continuation == null || continuation.isBlank() ? ScanParams.START : continuation;
    QueueRow row = row(queue, c.pausedQueues().contains(queue), rateLimits.current().get(queue));
    ScanPage page = c.scan(new ScanParams(queue, jobState, priority, future, from, limit, regex));
    // Scans answer without bodies: one lookup brings those of the page.
    Map<JobDescriptor, JobInfo> withBodies =
        page.jobs().isEmpty()
            ? Map.of()
            : c.lookup(page.jobs().stream().map(JobInfo::descriptor).toList(), true);
    List<JobRow> jobs =
        page.jobs().stream()
            .map(j -> JobRow.of(withBodies.getOrDefault(j.descriptor(), j), JobRow.BODY_PREVIEW))
            .toList();
    return new QueuePage(
        banner,
        servers.describe(),
        row,
        new Scan(
            jobState.name(),
            priority,
            future,
            regex == null ? "" : regex,
            limit,
            from,
            page.hasMore() ? page.continuation() : null,
            jobs));
  }

  /** The job with its whole body. */
  public JobPage job(Banner banner, String descriptor) {
    JobDescriptor id = descriptor(descriptor);
    Map<JobDescriptor, JobInfo> found = requireClient().lookup(List.of(id), true);
    JobInfo info = found.get(id);
    if (info == null) {
      throw new JobNotFoundException(
          "no job "
              + descriptor
              + " (it never existed, was deleted, or its queue "
              + "deleted finished jobs after their time to live)");
    }
    return new JobPage(banner, descriptor, JobRow.of(info, Integer.MAX_VALUE));
  }

  /**
   * The priorities the servers support: 1..levels, probed once (the protocol does not report them).
   */
  List<Integer> priorities(String queue) {
    if (priorityLevels == 0) {
      int levels = 0;
      for (int p = 1; p <= MAX_PRIORITIES; p++) {
        try {
          requireClient().count(new CountParams(queue, JobState.PENDING, p, false, null));
        } catch (QueueClientException e) {
          if (e.errorCode() == ErrorCode.PRIORITY_NOT_SUPPORTED && p > 1) {
            break;
          }
          throw e;
        }
        levels = p;
      }
      priorityLevels = levels;
    }
    List<Integer> all = new ArrayList<>();
    for (int p = 1; p <= priorityLevels; p++) {
      all.add(p);
    }
    return all;
  }

  /** The queue's row, or null when it was deleted after the list of names was read. */
  private QueueRow rowUnlessDeleted(String queue, boolean paused, Double rateLimit) {
    try {
      return row(queue, paused, rateLimit);
    } catch (QueueClientException e) {
      if (e.errorCode() == ErrorCode.QUEUE_NOT_FOUND) {
        return null;
      }
      throw e;
    }
  }

  private QueueRow row(String queue, boolean paused, Double rateLimit) {
    QueueClient c = requireClient();
    List<PriorityCounts> perPriority = new ArrayList<>();
    Counts total = Counts.ZERO;
    for (int p : priorities(queue)) {
      Counts counts =
          new Counts(
              c.count(new CountParams(queue, JobState.PENDING, p, false, null)),
              c.count(new CountParams(queue, JobState.PENDING, p, true, null)),
              c.count(new CountParams(queue, JobState.IN_PROGRESS, p, false, null)),
              c.count(new CountParams(queue, JobState.SUCCEEDED, p, false, null)),
              c.count(new CountParams(queue, JobState.FAILED, p, false, null)));
      perPriority.add(new PriorityCounts(p, counts));
      total = total.plus(counts);
    }
    return new QueueRow(queue, paused, rateLimit, total, perPriority, rates.sample(queue, total));
  }

  private QueueClient requireClient() {
    if (client == null) {
      throw new IllegalArgumentException(
          "no queue servers configured: set ui.queueServers or " + "ui.queueServerSetFile");
    }
    return client;
  }

  static JobState state(String name) {
    try {
      return JobState.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'state' must be PENDING, IN_PROGRESS, SUCCEEDED or FAILED, got '" + name + "'");
    }
  }

  static String regex(String filter) {
    try {
      Pattern.compile(filter);
      return filter;
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "'filter' is not a Java regular expression: "
              + e.getDescription()
              + " in '"
              + filter
              + "'");
    }
  }

  static JobDescriptor descriptor(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("'descriptor' is required, e.g. mail:s1:p1:42");
    }
    try {
      return JobDescriptor.parse(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  /** Closes the connections to the queue servers. */
  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
  }

  /** A job the servers do not have: 404. */
  public static final class JobNotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    JobNotFoundException(String message) {
      super(message);
    }
  }
}
