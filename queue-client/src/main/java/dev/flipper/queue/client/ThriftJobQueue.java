package dev.flipper.queue.client;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.EnqueueOutcome;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link JobQueue} on a remote queue server: each operation is one Thrift call made with a {@link
 * QueueClient}, so code written against {@code JobQueue} runs unchanged against a server. Failures
 * are {@link QueueException}s with the server's {@link ErrorCode} and message; when no server
 * answered (a {@link QueueUnavailableException}, kept as the cause) the code is UNKNOWN.
 *
 * <p>Where the PinLater protocol cannot say exactly what the Java API can:
 *
 * <ul>
 *   <li>The source of a dequeue or checkpoint travels in the call's RequestContext, and a
 *       QueueClient sends a fixed one, so this class keeps one client per source it has seen
 *       ({@link #over} sends them all over one client's connections). A source no client can send
 *       (blank, over 200 characters) fails as an invalid request without a call; a null one fails
 *       as the in-process queue does.
 *   <li>A checkpoint's new body is a Thrift {@code string}, not {@code binary}: only valid UTF-8
 *       survives the trip, so other bodies are refused as an invalid request instead of being
 *       changed on the way.
 *   <li>A dequeue answer is a map, which loses the order: jobs come back sorted by priority (1
 *       first), in no particular order within a priority.
 *   <li>Required fields cannot be absent on the wire: a null queue name, job state or list fails
 *       here, with the code the in-process queue gives (QUEUE_NAME_INVALID, or UNKNOWN "invalid
 *       request").
 *   <li>An ack or checkpoint with nothing in it is not sent (the client skips it), so it is not
 *       validated.
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} closes every client it holds.
 */
public final class ThriftJobQueue implements JobQueue, AutoCloseable {
  private final QueueClient client;
  private final Function<String, QueueClient> clientForSource;
  private final Map<String, QueueClient> bySource = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param client makes the calls that carry no source (all but dequeue and checkpoint) and those
   *     whose source is its own
   * @param clientForSource opens a client that sends the given source, for example {@code source ->
   *     QueueClient.builder().server(host, port).source(source).build()}; called once per other
   *     source
   */
  public ThriftJobQueue(QueueClient client, Function<String, QueueClient> clientForSource) {
    this.client = Objects.requireNonNull(client, "client");
    this.clientForSource = Objects.requireNonNull(clientForSource, "clientForSource");
    bySource.put(client.source(), client);
  }

  /**
   * Calls through one client's connections; a dequeue or checkpoint of another source than the
   * client's goes over the same connections with that source. {@link #close()} closes the client.
   *
   * <pre>{@code
   * ThriftJobQueue jobs = ThriftJobQueue.over(QueueClient.builder().server("queue1", 9010).build());
   * QueueWorker worker = QueueWorker.builder(jobs, "mail", handler).source("mailer:host7").build().start();
   * }</pre>
   */
  public static ThriftJobQueue over(QueueClient client) {
    return new ThriftJobQueue(client, client::withSource);
  }

  @Override
  public void createQueue(String queue) {
    call(
        () -> {
          client.createQueue(queue);
          return null;
        });
  }

  @Override
  public void deleteQueue(String queue, String password) {
    call(
        () -> {
          client.deleteQueue(queue, password);
          return null;
        });
  }

  @Override
  public Set<String> queueNames() {
    return Collections.unmodifiableSet(new TreeSet<>(call(client::queueNames)));
  }

  @Override
  public List<JobDescriptor> enqueue(String queue, List<NewJob> jobs) {
    requireQueueName(queue);
    requireAll(jobs, "the list of jobs to enqueue", "job");
    return call(() -> client.enqueue(queue, jobs));
  }

  @Override
  public List<EnqueueOutcome> enqueueWithOutcomes(String queue, List<NewJob> jobs) {
    requireQueueName(queue);
    requireAll(jobs, "the list of jobs to enqueue", "job");
    return call(() -> client.enqueueWithOutcomes(queue, jobs));
  }

  @Override
  public List<DequeuedJob> dequeue(DequeueParams params) {
    required(params, "dequeue params");
    requireQueueName(params.queue());
    AckParams ack = params.ack();
    // The in-process queue lets a piggy-backed ack leave out its queue; the wire needs it.
    DequeueParams sent =
        ack != null && ack.queue() == null
            ? params.withAck(new AckParams(params.queue(), ack.succeeded(), ack.failed()))
            : params;
    QueueClient sender = clientFor(params.source());
    List<DequeuedJob> jobs = new ArrayList<>(call(() -> sender.dequeue(sent)));
    jobs.sort(Comparator.comparingInt(job -> job.descriptor().priority()));
    return jobs;
  }

  @Override
  public void ack(AckParams params) {
    required(params, "ack params");
    requireQueueName(params.queue());
    call(
        () -> {
          client.ack(params);
          return null;
        });
  }

  @Override
  public void checkpoint(String queue, String source, List<CheckpointParams> checkpoints) {
    requireQueueName(queue);
    requireAll(checkpoints, "the list of checkpoints", "checkpoint");
    for (CheckpointParams checkpoint : checkpoints) {
      requireUtf8(checkpoint);
    }
    QueueClient sender = clientFor(source);
    call(
        () -> {
          sender.checkpoint(queue, checkpoints);
          return null;
        });
  }

  @Override
  public Map<JobDescriptor, JobInfo> lookup(List<JobDescriptor> jobs, boolean includeBody) {
    requireAll(jobs, "the list of jobs to look up", "job");
    return Collections.unmodifiableMap(call(() -> client.lookup(jobs, includeBody)));
  }

  @Override
  public int count(CountParams params) {
    required(params, "count params");
    requireQueueName(params.queue());
    requireState(params.state(), "count");
    return call(() -> client.count(params));
  }

  @Override
  public ScanPage scan(ScanParams params) {
    required(params, "scan params");
    requireQueueName(params.queue());
    requireState(params.state(), "scan");
    return call(() -> client.scan(params));
  }

  @Override
  public int retryFailed(RetryFailedParams params) {
    required(params, "retryFailed params");
    requireQueueName(params.queue());
    return call(() -> client.retryFailed(params));
  }

  @Override
  public int deleteJobs(DeleteJobsParams params) {
    required(params, "deleteJobs params");
    requireQueueName(params.queue());
    requireState(params.state(), "deleteJobs");
    return call(() -> client.deleteJobs(params));
  }

  @Override
  public boolean retryJob(JobDescriptor job, int attemptsToAllow) {
    required(job, "the job to retry");
    requireQueueName(job.queue());
    return call(() -> client.retryJob(job, attemptsToAllow));
  }

  @Override
  public void close() {
    closed = true;
    RuntimeException failure = null;
    for (QueueClient each : bySource.values()) {
      try {
        each.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    bySource.clear();
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "ThriftJobQueue" + client.servers();
  }

  /**
   * Runs one client call; the server's error becomes the QueueException the in-process queue would
   * throw.
   */
  private static <T> T call(Supplier<T> operation) {
    try {
      return operation.get();
    } catch (QueueClientException e) {
      throw new QueueException(e.errorCode(), e.getMessage(), e);
    }
  }

  private QueueClient clientFor(String source) {
    if (source == null) {
      throw QueueException.invalid("a source is required, for example 'mailer:host7'");
    }
    if (closed) {
      throw new IllegalStateException("this ThriftJobQueue is closed");
    }
    try {
      return bySource.computeIfAbsent(source, clientForSource);
    } catch (IllegalArgumentException e) {
      throw QueueException.invalid("the call's source cannot be sent: " + e.getMessage());
    }
  }

  private static void requireQueueName(String queue) {
    if (queue == null) {
      throw new QueueException(
          ErrorCode.QUEUE_NAME_INVALID,
          "a queue name is required; allowed: letters, digits and '_'");
    }
  }

  private static void requireState(JobState state, String operation) {
    if (state == null) {
      throw QueueException.invalid(
          operation + " needs a job state (PENDING, IN_PROGRESS, SUCCEEDED or FAILED)");
    }
  }

  private static void requireAll(List<?> list, String what, String item) {
    required(list, what);
    for (int i = 0; i < list.size(); i++) {
      required(list.get(i), item + " #" + i + " of " + what);
    }
  }

  private static void required(Object value, String what) {
    if (value == null) {
      throw QueueException.invalid(what + " is required");
    }
  }

  private static void requireUtf8(CheckpointParams checkpoint) {
    if (checkpoint.newBody() == null) {
      return;
    }
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(checkpoint.newBody()));
    } catch (CharacterCodingException e) {
      throw QueueException.invalid(
          "the new body of checkpoint "
              + checkpoint.job()
              + " is not valid UTF-8; the "
              + "protocol carries it as a Thrift string, so over Thrift only UTF-8 bodies can be checkpointed");
    }
  }
}
