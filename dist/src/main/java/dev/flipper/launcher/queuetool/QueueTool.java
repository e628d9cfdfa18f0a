package dev.flipper.launcher.queuetool;

import dev.flipper.config.ConfigLocator;
import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.VersionProvider;
import dev.flipper.queue.AckParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.EnqueueOutcome;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueClientException;
import dev.flipper.queue.client.QueueUnavailableException;
import dev.flipper.text.DurationText;
import dev.flipper.tls.TlsIdentity;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The queue's admin and load tool, with PinLater's flags and modes (scripts written for PinLater's
 * tool keep working) plus what an operator needs: enqueue of given bodies, lookup by descriptor
 * alone, paged scans, a count table, bulk retry and delete over all priorities, delete of one job,
 * pause and resume, {@code --json}. {@code enqueue} and {@code dequeue} without bodies are
 * PinLater's load generators. Exit codes: 0 done, 1 the server refused (its error code and message
 * on stderr) or the job was not found, 2 a bad command line. It lives in dist, not in the
 * queue-client SDK, so applications do not pull picocli and HdrHistogram.
 */
@Command(
    name = "queue-tool",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = "Administers a queue server over Thrift; also PinLater's load tool.",
    footer = {
      "",
      "Modes:",
      "  create, delete_queue, get_queue_names       queues",
      "  enqueue --body/--body_file/--stdin          add jobs, print their descriptors (--unique_key)",
      "  lookup --job_descriptor D                   one job (the queue is in the descriptor)",
      "  scan [--continuation C]                     one page of jobs and the command for the next page",
      "  count                                       jobs per priority x state, due and future",
      "  get_job_count                               one number (PinLater)",
      "  retry_failed, delete_jobs --job_state S     all priorities unless --priority; delete asks first",
      "  delete_job --job_descriptor D               delete one job",
      "  retry_job --job_descriptor D                one FAILED job back to PENDING (--attempts_to_allow)",
      "  pause, resume, get_paused_queues            stop or restart dequeues of a queue on every server",
      "  check_dequeue; enqueue/dequeue without bodies: load (QPS, p50/p99 each second, summary at the end)",
      "",
      "Examples:",
      "  flipper queue-tool -c conf/flipper.yaml --mode enqueue --queue emails --body '{\"to\":1}' --delay 5m",
      "  flipper queue-tool --mode count --queue emails",
      "  flipper queue-tool --host localhost --port 9010 --mode enqueue --queue test_queue --num_queries 1000"
    })
public final class QueueTool implements Callable<Integer> {
  static final int EXIT_FAILED = 1;
  static final int EXIT_USAGE = 2;

  @Spec CommandSpec spec;

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description =
          "The daemons' YAML config; --host and --port default to its queue server. Without it:"
              + " $FLIPPER_CONFIG, then ./flipper.yaml, then the user's config directory, then the"
              + " defaults (docs/configuration.md).")
  Path config;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "Overrides one config key. Repeatable.")
  List<String> sets = new ArrayList<>();

  @Option(
      names = "--host",
      description = "Server host (default: queue.bindAddress of the config, or localhost).")
  String host;

  @Option(
      names = "--port",
      description = "Server Thrift port (default: queue.port of the config, 9010 without one).")
  Integer port;

  @Option(names = "--mode", required = true, description = "What to do (see the list below).")
  String mode;

  @Option(
      names = "--queue",
      description =
          "Queue name; needed by every mode except get_queue_names, lookup and " + "delete_job.")
  String queue;

  @Option(names = "--body", description = "enqueue: the body of one job.")
  String body;

  @Option(
      names = "--body_file",
      paramLabel = "FILE",
      description = "enqueue: one job whose body is the file.")
  Path bodyFile;

  @Option(names = "--stdin", description = "enqueue: one job per non-empty line of standard input.")
  boolean stdin;

  @Option(
      names = "--delay",
      paramLabel = "DURATION",
      description = "enqueue: run after this delay, e.g. 30s, 5m, 2h.")
  String delay;

  @Option(
      names = "--run_at",
      paramLabel = "TIME",
      description = "enqueue: run at this ISO-8601 time, e.g. " + "2026-01-31T08:00:00Z.")
  String runAt;

  @Option(names = "--attempts", description = "enqueue: attempts allowed (default 2).")
  Integer attempts;

  @Option(
      names = {"--unique_key", "--unique-key"},
      paramLabel = "KEY",
      description =
          "enqueue: a unique key; while a job of the queue holds it, the enqueue stores nothing and"
              + " prints the holder's descriptor marked (duplicate). [A-Za-z0-9_.:/@=+-], 1..128.")
  String uniqueKey;

  @Option(
      names = {"--unique_for", "--unique-for"},
      paramLabel = "DURATION",
      description =
          "enqueue: hold the unique key this long from enqueue, e.g. 10m, 1d (default: while the"
              + " job is pending or running).")
  String uniqueFor;

  @Option(
      names = "--concurrency",
      defaultValue = "1",
      description = "Requests in flight (default ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(
      names = "--batch_size",
      defaultValue = "1",
      description = "Jobs per enqueue, or the dequeue limit.")
  int batchSize;

  @Option(
      names = "--num_queries",
      defaultValue = "1",
      description = "Requests to send; -1 = until stopped.")
  long numQueries;

  @Option(
      names = "--dequeue_success_percent",
      defaultValue = "100",
      description = "Share of dequeued jobs acked as succeeded; the rest are acked failed.")
  int dequeueSuccessPercent;

  @Option(
      names = "--job_descriptor",
      description = "Job to look up, delete or retry, e.g. emails:s1:p1:42.")
  String jobDescriptor;

  @Option(
      names = "--priority",
      description =
          "Enqueue priority (default 1); the filter of count, scan, "
              + "retry_failed and delete_jobs (default: all priorities).")
  Integer priority;

  @Option(
      names = "--job_state",
      converter = JobStateConverter.class,
      paramLabel = "STATE",
      description =
          "0 PENDING, 1 IN_PROGRESS, 2 SUCCEEDED, 3 FAILED, number or name (get_job_count and scan: "
              + "default PENDING; count: default all; delete_jobs: required).")
  JobState jobState;

  @Option(
      names = "--count_future_jobs",
      description = "Count (or scan) jobs that run later instead of due ones.")
  boolean countFutureJobs;

  @Option(
      names = "--continuation",
      description = "scan: where the previous page ended (printed with it).")
  String continuation;

  @Option(
      names = "--limit",
      description =
          "Most jobs for scan (default 100), retry_failed and delete_jobs " + "(default 1000).")
  Integer limit;

  @Option(
      names = "--body_regex",
      description = "Only jobs whose body matches (counts, scan, delete_jobs).")
  String bodyRegex;

  @Option(
      names = "--attempts_to_allow",
      defaultValue = "1",
      description = "Attempts given to retried jobs (retry_failed, retry_job).")
  int attemptsToAllow;

  @Option(
      names = {"-y", "--yes"},
      description = "delete_jobs: do not ask for confirmation.")
  boolean yes;

  @Option(
      names = "--json",
      description = "Print one JSON document instead of text (not for load modes).")
  boolean json;

  @Option(
      names = "--password",
      description =
          "Queue admin password (delete_queue, delete_jobs, retry_failed, pause, resume).")
  String password;

  @Option(
      names = "--source",
      description = "RequestContext source (default flipper-queue-tool:<host name>).")
  String source;

  /** Where confirmations and {@code --stdin} bodies are read from; tests replace it. */
  InputStream in = System.in;

  Clock clock = Clock.systemUTC();

  private PrintWriter out;
  private PrintWriter err;

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    err = spec.commandLine().getErr();
    String problem = usageProblem();
    if (problem != null) {
      err.println(problem);
      err.flush();
      return EXIT_USAGE;
    }
    try {
      target = target();
      try (QueueClient client =
          QueueClient.builder()
              .server(target.host(), target.port())
              .maxConnectionsPerServer(concurrency)
              .maxAttempts(1)
              .adminPassword(password)
              .tls(tls)
              .source(
                  source != null
                      ? source
                      : "flipper-queue-tool:" + InetAddress.getLocalHost().getHostName())
              .build()) {
        return run(client, target);
      }
    } catch (QueueClientException e) {
      err.println(
          mode
              + " failed: "
              + e.errorCode()
              + " ("
              + e.errorCode().code()
              + "): "
              + e.getMessage());
      if (e instanceof QueueUnavailableException && target != null && target.origin() != null) {
        err.println(
            "the server "
                + target.host()
                + ":"
                + target.port()
                + " came from "
                + target.origin()
                + "; give -c FILE, set FLIPPER_CONFIG, or --host and --port");
      }
      return EXIT_FAILED;
    } catch (IllegalArgumentException | QueueException | dev.flipper.config.ConfigException e) {
      err.println(mode + ": " + e.getMessage());
      return EXIT_USAGE;
    } finally {
      out.flush();
      err.flush();
    }
  }

  private String usageProblem() {
    boolean needsQueue =
        !List.of("get_queue_names", "get_paused_queues", "lookup", "delete_job", "retry_job")
            .contains(mode);
    if (needsQueue && (queue == null || queue.isBlank())) {
      return "--queue is required for mode " + mode;
    }
    if (concurrency < 1 || batchSize < 1 || numQueries == 0 || numQueries < -1) {
      return "--concurrency and --batch_size must be >= 1, --num_queries >= 1 or -1 (unlimited)";
    }
    boolean needsJob = List.of("lookup", "delete_job", "retry_job").contains(mode);
    if (needsJob && (jobDescriptor == null || jobDescriptor.isBlank())) {
      return "--job_descriptor is required for mode "
          + mode
          + ", e.g. --job_descriptor emails:s1:p1:42";
    }
    if ("delete_jobs".equals(mode) && jobState == null) {
      return "delete_jobs needs an explicit --job_state (PENDING, IN_PROGRESS, SUCCEEDED or FAILED): "
          + "there is no default for deleting";
    }
    if (delay != null && runAt != null) {
      return "give --delay or --run_at, not both";
    }
    return null;
  }

  /**
   * The server: --host/--port, else the config's queue server (-c, FLIPPER_CONFIG, ./flipper.yaml,
   * the user's config directory: {@link ConfigLocator}), else localhost:9010.
   */
  private ServerTarget target() {
    ConfigLocator.Located located = ConfigLocator.locate(config);
    FlipperConfig loaded = located.load(sets, System.getenv());
    priorityLevels = loaded.queue().priorityLevels();
    tls = loaded.security().commandIdentity().orElse(null);
    if (host != null && port != null) {
      return new ServerTarget(host, port, null);
    }
    String bind = loaded.queue().bindAddress();
    String configHost =
        bind == null || bind.isBlank() || bind.equals("0.0.0.0") || bind.equals("::")
            ? "localhost"
            : bind;
    return new ServerTarget(
        host != null ? host : configHost,
        port != null ? port : loaded.queue().port(),
        located.describe());
  }

  /**
   * @param origin which config named it (for a failure message), null when --host and --port did
   */
  record ServerTarget(String host, int port, String origin) {}

  /** The server of this run, once known. */
  private ServerTarget target;

  /** queue.priorityLevels of the config, which every client and server must share. */
  private int priorityLevels;

  /** With security.tls: the certificate commands present (security.identity, else operator). */
  private TlsIdentity tls;

  private int run(QueueClient client, ServerTarget target) throws Exception {
    switch (mode) {
      case "create" -> {
        client.createQueue(queue);
        print("Created queue: " + queue, Map.of("created", queue));
      }
      case "delete_queue" -> {
        client.deleteQueue(queue, password == null ? "" : password);
        print("Deleted queue: " + queue, Map.of("deleted", queue));
      }
      case "get_queue_names" -> {
        TreeSet<String> names = new TreeSet<>(client.queueNames());
        print("Queues: " + names, Map.of("queues", names));
      }
      case "check_dequeue" -> {
        List<DequeuedJob> jobs =
            client.dequeue(DequeueParams.of(queue, 1, client.source()).withDryRun(true));
        print(
            "Jobs available for dequeue: " + !jobs.isEmpty(), Map.of("available", !jobs.isEmpty()));
      }
      case "lookup" -> {
        return lookup(client);
      }
      case "get_job_count" -> {
        int count =
            client.count(
                new dev.flipper.queue.CountParams(
                    queue, state(JobState.PENDING), priority, countFutureJobs, bodyRegex));
        print("# jobs: " + count, Map.of("count", count));
      }
      case "count" -> {
        CountTable table =
            CountTable.query(
                client, queue, Priorities.of(priority, priorityLevels), jobState, bodyRegex);
        if (json) {
          out.println(ToolJson.write(table.json()));
        } else {
          out.print(table.text());
        }
      }
      case "scan" -> scan(client, target);
      case "retry_failed" -> {
        int retried = 0;
        for (int p : Priorities.of(priority, priorityLevels)) {
          retried +=
              client.retryFailed(
                  new RetryFailedParams(queue, p, attemptsToAllow, null, bulkLimit() - retried));
          if (retried >= bulkLimit()) {
            break;
          }
        }
        print("Retried jobs: " + retried, Map.of("retried", retried));
      }
      case "delete_jobs" -> {
        return deleteJobs(client);
      }
      case "delete_job" -> {
        JobDescriptor job = JobDescriptor.parse(jobDescriptor);
        if (!client.deleteJob(job)) {
          err.println("Job not found: " + job);
          return EXIT_FAILED;
        }
        print("Deleted job: " + job, Map.of("deleted", job.toString()));
      }
      case "retry_job" -> {
        return retryJob(client);
      }
      case "pause", "resume" -> {
        client.setQueuePaused(queue, mode.equals("pause"));
        String done =
            mode.equals("pause")
                ? "Paused queue: " + queue + " (dequeues return no job until resumed)"
                : "Resumed queue: " + queue;
        print(done, Map.of("queue", queue, "paused", mode.equals("pause")));
      }
      case "get_paused_queues" -> {
        TreeSet<String> names = new TreeSet<>(client.pausedQueues());
        print("Paused queues: " + names, Map.of("paused", names));
      }
      case "enqueue" -> {
        return JobBodies.given(body, bodyFile, stdin) ? enqueueBodies(client) : load(client, true);
      }
      case "dequeue" -> {
        return load(client, false);
      }
      default -> {
        err.println(
            "unknown --mode '"
                + mode
                + "'; allowed: create, enqueue, dequeue, check_dequeue, lookup, "
                + "get_job_count, count, get_queue_names, scan, retry_failed, delete_jobs, delete_job, retry_job, "
                + "delete_queue, pause, resume, get_paused_queues");
        return EXIT_USAGE;
      }
    }
    return 0;
  }

  private JobState state(JobState otherwise) {
    return jobState != null ? jobState : otherwise;
  }

  private int bulkLimit() {
    return limit == null ? 1000 : limit;
  }

  private void print(String text, Object jsonValue) {
    out.println(json ? ToolJson.write(jsonValue) : text);
  }

  private int lookup(QueueClient client) {
    JobDescriptor id = JobDescriptor.parse(jobDescriptor);
    JobInfo found = client.lookup(List.of(id), true).get(id);
    if (found == null) {
      err.println("Job not found: " + id);
      return EXIT_FAILED;
    }
    print(describe(found, true), ToolJson.job(found));
    return 0;
  }

  /**
   * Retries one FAILED job; when nothing moved, says whether the job is missing or in which state
   * it is.
   */
  private int retryJob(QueueClient client) {
    JobDescriptor job = JobDescriptor.parse(jobDescriptor);
    if (client.retryJob(job, attemptsToAllow)) {
      print(
          "Retried job: " + job + " (PENDING, runnable now, " + attemptsToAllow + " attempt(s))",
          Map.of("retried", true, "job", job.toString()));
      return 0;
    }
    JobInfo found = client.lookup(List.of(job), false).get(job);
    String reason = found == null ? "not found" : "is " + found.state() + ", not FAILED";
    if (json) {
      out.println(
          ToolJson.write(Map.of("retried", false, "job", job.toString(), "reason", reason)));
    }
    err.println("Job not retried: " + job + " " + reason);
    return EXIT_FAILED;
  }

  private void scan(QueueClient client, ServerTarget target) {
    JobState state = state(JobState.PENDING);
    ScanPage page =
        client.scan(
            new ScanParams(
                queue,
                state,
                priority,
                countFutureJobs,
                continuation == null ? ScanParams.START : continuation,
                limit == null ? ScanParams.DEFAULT_LIMIT : limit,
                bodyRegex));
    if (json) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("jobs", page.jobs().stream().map(ToolJson::job).toList());
      result.put("continuation", page.hasMore() ? page.continuation() : null);
      out.println(ToolJson.write(result));
      return;
    }
    for (JobInfo info : page.jobs()) {
      out.println(describe(info, false));
    }
    out.println(
        "# jobs scanned: "
            + page.jobs().size()
            + (page.hasMore() ? " (more: " + page.continuation() + ")" : ""));
    if (page.hasMore()) {
      out.println("# next page: " + nextPageCommand(target, state, page.continuation()));
    }
  }

  /** The same scan from where this page ended, as a command to paste. */
  private String nextPageCommand(ServerTarget target, JobState state, String next) {
    List<String> words =
        new ArrayList<>(
            List.of(
                "flipper",
                "queue-tool",
                "--host",
                target.host(),
                "--port",
                String.valueOf(target.port()),
                "--mode",
                "scan",
                "--queue",
                queue,
                "--job_state",
                state.name()));
    if (priority != null) {
      words.addAll(List.of("--priority", priority.toString()));
    }
    if (countFutureJobs) {
      words.add("--count_future_jobs");
    }
    if (limit != null) {
      words.addAll(List.of("--limit", limit.toString()));
    }
    if (bodyRegex != null) {
      words.addAll(List.of("--body_regex", bodyRegex));
    }
    words.addAll(List.of("--continuation", next));
    return String.join(" ", words.stream().map(QueueTool::shellWord).toList());
  }

  static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./:=@,+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  private int deleteJobs(QueueClient client) throws IOException {
    List<Integer> priorities = Priorities.of(priority, priorityLevels);
    String what =
        "up to "
            + bulkLimit()
            + " "
            + jobState
            + " jobs of queue '"
            + queue
            + "' ("
            + (priority == null ? "all priorities" : "priority " + priority)
            + (bodyRegex == null ? "" : ", body matching " + bodyRegex)
            + ")";
    if (!yes && !confirm("Delete " + what + "? [y/N] ")) {
      err.println("Nothing deleted (not confirmed; --yes skips the question).");
      return EXIT_FAILED;
    }
    int deleted = 0;
    for (int p : priorities) {
      deleted +=
          client.deleteJobs(
              new DeleteJobsParams(queue, jobState, p, bodyRegex, bulkLimit() - deleted));
      if (deleted >= bulkLimit()) {
        break;
      }
    }
    print("Deleted jobs: " + deleted, Map.of("deleted", deleted));
    return 0;
  }

  private boolean confirm(String question) throws IOException {
    err.print(question);
    err.flush();
    String answer =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
    return answer != null && List.of("y", "yes").contains(answer.trim().toLowerCase(Locale.ROOT));
  }

  private int enqueueBodies(QueueClient client) throws IOException {
    Instant runAfter = runAfter();
    List<NewJob> jobs = new ArrayList<>();
    for (byte[] jobBody : JobBodies.read(body, bodyFile, stdin, in)) {
      NewJob job =
          NewJob.of(jobBody)
              .withPriority(priority == null ? NewJob.DEFAULT_PRIORITY : priority)
              .withRunAfter(runAfter);
      job = attempts == null ? job : job.withAttemptsAllowed(attempts);
      jobs.add(uniqueKey == null ? job : job.withUniqueKey(uniqueKey).withUniqueFor(uniqueFor()));
    }
    if (uniqueKey != null) {
      return printOutcomes(client.enqueueWithOutcomes(queue, jobs));
    }
    if (uniqueFor != null) {
      throw new IllegalArgumentException("--unique_for needs --unique_key");
    }
    List<JobDescriptor> descriptors = client.enqueue(queue, jobs);
    if (json) {
      out.println(
          ToolJson.write(
              Map.of("jobDescriptors", descriptors.stream().map(Object::toString).toList())));
    } else {
      descriptors.forEach(out::println);
    }
    return 0;
  }

  private int printOutcomes(List<EnqueueOutcome> outcomes) {
    if (json) {
      out.println(
          ToolJson.write(
              Map.of(
                  "jobDescriptors",
                  outcomes.stream().map(outcome -> outcome.job().toString()).toList(),
                  "duplicates",
                  outcomes.stream().map(EnqueueOutcome::duplicate).toList())));
    } else {
      for (EnqueueOutcome outcome : outcomes) {
        out.println(outcome.job() + (outcome.duplicate() ? " (duplicate)" : ""));
      }
    }
    return 0;
  }

  /** From --unique_for; null = while the job is pending or running. */
  private Duration uniqueFor() {
    if (uniqueFor == null) {
      return null;
    }
    return DurationText.parse(uniqueFor)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "--unique_for '"
                        + uniqueFor
                        + "' is not a duration; write a number and a unit: 30s, 10m, 2h, 1d"));
  }

  /** From --delay or --run_at; null = now. */
  private Instant runAfter() {
    if (delay != null) {
      Duration wait =
          DurationText.parse(delay)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "--delay '"
                              + delay
                              + "' is not a duration; write a number and a unit: 500ms, 30s, 5m, 2h, 1d"));
      return clock.instant().plus(wait);
    }
    if (runAt != null) {
      try {
        return Instant.parse(runAt);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "--run_at '"
                + runAt
                + "' is not an ISO-8601 time in UTC; "
                + "write e.g. 2026-01-31T08:00:00Z");
      }
    }
    return null;
  }

  private int load(QueueClient client, boolean enqueue) throws InterruptedException {
    LoadLoop loop = new LoadLoop(out, err);
    if (enqueue) {
      long failures = loop.run(numQueries, concurrency, () -> client.enqueue(queue, batch()));
      out.println(
          "Enqueue queries issued: "
              + (numQueries < 0 ? "unlimited" : numQueries)
              + ", failed: "
              + failures);
      return failures == 0 ? 0 : EXIT_FAILED;
    }
    long failures = loop.run(numQueries, concurrency, () -> dequeueAndAck(client));
    out.println(
        "Dequeue/ack queries issued: "
            + (numQueries < 0 ? "unlimited" : numQueries)
            + ", failed: "
            + failures);
    return failures == 0 ? 0 : EXIT_FAILED;
  }

  private List<NewJob> batch() {
    List<NewJob> jobs = new ArrayList<>(batchSize);
    for (int i = 0; i < batchSize; i++) {
      jobs.add(
          NewJob.of("task_" + ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE))
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
    StringBuilder text =
        new StringBuilder()
            .append(info.descriptor())
            .append(' ')
            .append(info.state())
            .append(" attempts=")
            .append(info.attemptsRemaining())
            .append('/')
            .append(info.attemptsAllowed())
            .append(" created=")
            .append(info.createdAt())
            .append(" runAfter=")
            .append(info.runAfter())
            .append(" updated=")
            .append(info.updatedAt());
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
