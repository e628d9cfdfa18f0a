package dev.flipper.launcher.queuetool;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.client.QueueClient;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * PinLater's client tool for a Flipper (or PinLater) queue server: the original modes and flags, plus scan,
 * retry_failed, delete_jobs and delete_queue. Enqueue and dequeue modes are load generators that print QPS
 * and latency once a second. Run it as {@code flipper queue-tool --host h --port 9010 --mode ...}. It lives in
 * dist, not in the queue-client SDK, so applications do not pull picocli and HdrHistogram.
 */
@Command(name = "queue-tool", mixinStandardHelpOptions = true,
    description = "Talks to a queue server over Thrift (PinLater's client tool).",
    footer = {"", "Modes: create, enqueue, dequeue, check_dequeue, lookup, get_job_count, get_queue_names, scan,",
        "retry_failed, delete_jobs, delete_queue.",
        "Example: queue-tool --host localhost --port 9010 --mode enqueue --queue test_queue --num_queries 1000"})
public final class QueueTool implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--host", required = true, description = "Server host.")
  String host;

  @Option(names = "--port", required = true, description = "Server Thrift port, e.g. 9010.")
  int port;

  @Option(names = "--mode", required = true, description = "What to do (see the list below).")
  String mode;

  @Option(names = "--queue", description = "Queue name; needed by every mode except get_queue_names.")
  String queue;

  @Option(names = "--concurrency", defaultValue = "1", description = "Requests in flight (default ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(names = "--batch_size", defaultValue = "1", description = "Jobs per enqueue, or the dequeue limit.")
  int batchSize;

  @Option(names = "--num_queries", defaultValue = "1", description = "Requests to send; -1 = until stopped.")
  long numQueries;

  @Option(names = "--dequeue_success_percent", defaultValue = "100",
      description = "Share of dequeued jobs acked as succeeded; the rest are acked failed.")
  int dequeueSuccessPercent;

  @Option(names = "--job_descriptor", defaultValue = "", description = "Job to look up.")
  String jobDescriptor;

  @Option(names = "--priority", description = "Enqueue priority (default 1); filter of get_job_count, scan, "
      + "retry_failed and delete_jobs.")
  Integer priority;

  @Option(names = "--job_state", defaultValue = "0",
      description = "0 PENDING, 1 IN_PROGRESS, 2 SUCCEEDED, 3 FAILED (get_job_count, scan, delete_jobs).")
  int jobState;

  @Option(names = "--count_future_jobs", description = "Count (or scan) jobs that run later instead of due ones.")
  boolean countFutureJobs;

  @Option(names = "--limit", description = "Most jobs for scan (default 100), retry_failed and delete_jobs "
      + "(default 1000).")
  Integer limit;

  @Option(names = "--body_regex", description = "Only jobs whose body matches (get_job_count, scan, delete_jobs).")
  String bodyRegex;

  @Option(names = "--attempts_to_allow", defaultValue = "1", description = "Attempts given to retried jobs.")
  int attemptsToAllow;

  @Option(names = "--password", description = "Admin password (delete_queue).")
  String password;

  @Option(names = "--source", description = "RequestContext source (default flipper-queue-tool:<host name>).")
  String source;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!"get_queue_names".equals(mode) && (queue == null || queue.isBlank())) {
      err.println("--queue is required for mode " + mode);
      return 2;
    }
    if (concurrency < 1 || batchSize < 1 || numQueries == 0 || numQueries < -1) {
      err.println("--concurrency and --batch_size must be >= 1, --num_queries >= 1 or -1 (unlimited)");
      return 2;
    }
    try (QueueClient client = QueueClient.builder().server(host, port).maxConnectionsPerServer(concurrency)
        .source(source != null ? source : "flipper-queue-tool:" + InetAddress.getLocalHost().getHostName())
        .build()) {
      return run(client, out, err);
    } catch (dev.flipper.queue.client.QueueClientException e) {
      err.println(mode + " failed: " + e.getMessage() + " (" + e.errorCode() + ")");
      return 1;
    }
  }

  private int run(QueueClient client, PrintWriter out, PrintWriter err) throws Exception {
    switch (mode) {
      case "create" -> {
        client.createQueue(queue);
        out.println("Created queue: " + queue);
      }
      case "delete_queue" -> {
        client.deleteQueue(queue, password == null ? "" : password);
        out.println("Deleted queue: " + queue);
      }
      case "get_queue_names" -> out.println("Queues: " + new TreeSet<>(client.queueNames()));
      case "check_dequeue" -> {
        List<DequeuedJob> jobs = client.dequeue(DequeueParams.of(queue, 1, client.source()).withDryRun(true));
        out.println("Jobs available for dequeue: " + !jobs.isEmpty());
      }
      case "lookup" -> {
        JobDescriptor id = JobDescriptor.parse(jobDescriptor);
        Map<JobDescriptor, JobInfo> found = client.lookup(List.of(id), true);
        out.println(found.isEmpty() ? "Job not found: " + id : describe(found.get(id), true));
      }
      case "get_job_count" -> out.println("# jobs: " + client.count(
          new CountParams(queue, JobState.fromCode(jobState), priority, countFutureJobs, bodyRegex)));
      case "scan" -> {
        ScanPage page = client.scan(new ScanParams(queue, JobState.fromCode(jobState), priority, countFutureJobs,
            ScanParams.START, limit == null ? ScanParams.DEFAULT_LIMIT : limit, bodyRegex));
        for (JobInfo info : page.jobs()) {
          out.println(describe(info, false));
        }
        out.println("# jobs scanned: " + page.jobs().size() + (page.hasMore() ? " (more: " + page.continuation() + ")" : ""));
      }
      case "retry_failed" -> out.println("Retried jobs: " + client.retryFailed(new RetryFailedParams(queue,
          priority == null ? 1 : priority, attemptsToAllow, null, limit == null ? 1000 : limit)));
      case "delete_jobs" -> out.println("Deleted jobs: " + client.deleteJobs(new DeleteJobsParams(queue,
          JobState.fromCode(jobState), priority == null ? 1 : priority, bodyRegex, limit == null ? 1000 : limit)));
      case "enqueue" -> {
        long failures = new LoadLoop(out, err).run(numQueries, concurrency, () -> client.enqueue(queue, batch()));
        out.println("Enqueue queries issued: " + (numQueries < 0 ? "unlimited" : numQueries) + ", failed: " + failures);
      }
      case "dequeue" -> {
        long failures = new LoadLoop(out, err).run(numQueries, concurrency, () -> dequeueAndAck(client));
        out.println("Dequeue/ack queries issued: " + (numQueries < 0 ? "unlimited" : numQueries) + ", failed: "
            + failures);
      }
      default -> {
        err.println("unknown --mode '" + mode + "'; allowed: create, enqueue, dequeue, check_dequeue, lookup, "
            + "get_job_count, get_queue_names, scan, retry_failed, delete_jobs, delete_queue");
        return 2;
      }
    }
    out.flush();
    return 0;
  }

  private List<NewJob> batch() {
    List<NewJob> jobs = new ArrayList<>(batchSize);
    for (int i = 0; i < batchSize; i++) {
      jobs.add(NewJob.of("task_" + ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE))
          .withPriority(priority == null ? 1 : priority));
    }
    return jobs;
  }

  private void dequeueAndAck(QueueClient client) {
    List<DequeuedJob> jobs = client.dequeue(queue, batchSize);
    if (jobs.isEmpty()) {
      return;
    }
    List<AckParams.Item> succeeded = new ArrayList<>();
    List<AckParams.Item> failed = new ArrayList<>();
    for (DequeuedJob job : jobs) {
      boolean ok = ThreadLocalRandom.current().nextInt(100) < dequeueSuccessPercent;
      (ok ? succeeded : failed).add(AckParams.Item.of(job.descriptor()));
    }
    client.ack(new AckParams(queue, succeeded, failed));
  }

  private static String describe(JobInfo info, boolean withBody) {
    StringBuilder text = new StringBuilder()
        .append(info.descriptor()).append(' ').append(info.state())
        .append(" attempts=").append(info.attemptsRemaining()).append('/').append(info.attemptsAllowed())
        .append(" created=").append(info.createdAt())
        .append(" runAfter=").append(info.runAfter())
        .append(" updated=").append(info.updatedAt());
    if (info.claimDescriptor() != null) {
      text.append(" claim=").append(info.claimDescriptor());
    }
    if (!info.customStatus().isEmpty()) {
      text.append(" status=").append(info.customStatus().replace("\n", "\\n"));
    }
    if (withBody && info.body() != null) {
      text.append(" body=").append(new String(info.body(), StandardCharsets.UTF_8));
    }
    return text.toString();
  }
}
