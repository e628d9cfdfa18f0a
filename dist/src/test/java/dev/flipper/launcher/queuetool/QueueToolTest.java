package dev.flipper.launcher.queuetool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.launcher.Launcher;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.PasswordHash;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.tls.TlsFolder;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The queue tool against a real server (Thrift over TCP, ephemeral port): PinLater's modes and the
 * admin modes, with their output and exit codes (docs/operations.md, "The queue tool"; issue 15
 * item 1).
 */
class QueueToolTest {
  private static final String ADMIN_PASSWORD = "test-admin-password";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir Path dir;

  private final InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
  private final QueueServer server = serverOver(store, "test-server");
  private final List<AutoCloseable> closeLater = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable each : closeLater) {
      each.close();
    }
    server.close();
    store.close();
  }

  private static QueueServer serverOver(InMemoryQueueStore store, String id) {
    return QueueServer.builder(
            QueueService.builder(store)
                .serverId(id)
                .pauseRefresh(Duration.ZERO)
                .adminPasswordHash(PasswordHash.of(ADMIN_PASSWORD))
                .build())
        .port(0)
        .bindHost("127.0.0.1")
        .shutdownGracePeriod(Duration.ofSeconds(2))
        .build()
        .start();
  }

  @Test
  void withSecurityTlsItPresentsTheCommandIdentityToATlsServer() throws Exception {
    Path certificates = dir.resolve("certs");
    TlsFolder folder = TlsFolder.init(certificates, List.of(), Clock.systemUTC());
    QueueServer tlsServer =
        QueueServer.builder(QueueService.builder(store).serverId("tls-server").build())
            .port(0)
            .bindHost("127.0.0.1")
            .shutdownGracePeriod(Duration.ofSeconds(2))
            .tls(folder.identity("queue"))
            .build()
            .start();
    closeLater.add(tlsServer);
    String tls = "security.tls=true";
    String folderSet = "security.certificates=" + certificates;

    Result asOperator =
        runOn(
            tlsServer.port(),
            "--set",
            tls,
            "--set",
            folderSet,
            "--mode",
            "create",
            "--queue",
            "tls_q");
    Result asApp =
        runOn(
            tlsServer.port(),
            "--set",
            tls,
            "--set",
            folderSet,
            "--set",
            "security.identity=app",
            "--mode",
            "create",
            "--queue",
            "app_q");
    Result plain = runOn(tlsServer.port(), "--mode", "get_queue_names");

    assertThat(asOperator.out).contains("Created queue: tls_q");
    assertThat(asApp.code).isEqualTo(1);
    assertThat(asApp.err).contains("role app may not createQueue");
    assertThat(plain.code).isNotZero();
    assertThat(store.shard("1").queueNames()).containsExactly("tls_q");
  }

  @Test
  void pinLaterModesWorkEndToEnd() {
    assertThat(run("--mode", "create", "--queue", "tool_q").out).contains("Created queue: tool_q");

    Result enqueue =
        run(
            "--mode",
            "enqueue",
            "--queue",
            "tool_q",
            "--num_queries",
            "20",
            "--batch_size",
            "3",
            "--concurrency",
            "4",
            "--priority",
            "2");
    assertThat(enqueue.out)
        .contains("QPS: ")
        .contains("p99 (ms): ")
        .contains("Summary: 20 queries (0 failed)")
        .contains("Enqueue queries issued: 20");

    assertThat(run("--mode", "get_job_count", "--queue", "tool_q").out).contains("# jobs: 60");
    assertThat(run("--mode", "get_job_count", "--queue", "tool_q", "--priority", "1").out)
        .contains("# jobs: 0");
    assertThat(run("--mode", "check_dequeue", "--queue", "tool_q").out)
        .contains("Jobs available for dequeue: true");

    Result dequeue =
        run(
            "--mode",
            "dequeue",
            "--queue",
            "tool_q",
            "--num_queries",
            "10",
            "--batch_size",
            "3",
            "--dequeue_success_percent",
            "0");
    assertThat(dequeue.out).as(dequeue.err).contains("Dequeue/ack queries issued: 10, failed: 0");
    // Every dequeued job was acked failed: none succeeded; with 2 attempts a job is pending again
    // or, if it
    // was dequeued twice, failed.
    assertThat(run("--mode", "get_job_count", "--queue", "tool_q", "--job_state", "2").out)
        .contains("# jobs: 0");
    assertThat(count("0") + count("3")).isEqualTo(60);
    assertThat(count("1")).isZero();

    assertThat(run("--mode", "scan", "--queue", "tool_q", "--limit", "5").out)
        .contains("# jobs scanned: 5")
        .contains(" PENDING ");
    assertThat(run("--mode", "get_queue_names").out).contains("Queues: [tool_q]");
    assertThat(run("--mode", "delete_queue", "--queue", "tool_q", "--password", "wrong").code)
        .isEqualTo(1);
    assertThat(run("--mode", "delete_queue", "--queue", "tool_q", "--password", ADMIN_PASSWORD).out)
        .contains("Deleted queue: tool_q");
  }

  @Test
  void enqueueTakesBodiesFromArgumentFileAndStdinAndPrintsDescriptors() throws Exception {
    run("--mode", "create", "--queue", "mail");
    Result one =
        run(
            "--mode",
            "enqueue",
            "--queue",
            "mail",
            "--body",
            "{\"to\":1}",
            "--priority",
            "2",
            "--attempts",
            "5",
            "--run_at",
            "2030-01-02T03:04:05Z");
    assertThat(one.code).as(one.err).isZero();
    JsonNode job = lookupJson(one.out.trim());
    assertThat(job.get("body").asText()).isEqualTo("{\"to\":1}");
    assertThat(job.get("priority").asInt()).isEqualTo(2);
    assertThat(job.get("attemptsAllowed").asInt()).isEqualTo(5);
    assertThat(job.get("runAfter").asText()).isEqualTo("2030-01-02T03:04:05Z");

    Path file = Files.writeString(dir.resolve("body.txt"), "line one\nline two\n");
    Result fromFile =
        run(
            "--mode",
            "enqueue",
            "--queue",
            "mail",
            "--body_file",
            file.toString(),
            "--delay",
            "5m");
    assertThat(lookupJson(fromFile.out.trim()).get("body").asText())
        .isEqualTo("line one\nline two\n");
    assertThat(Instant.parse(lookupJson(fromFile.out.trim()).get("runAfter").asText()))
        .isEqualTo(NOW.plusSeconds(300));

    Result fromStdin =
        runWithInput("a\n\nb\nc\n", "--mode", "enqueue", "--queue", "mail", "--stdin", "--json");
    JsonNode descriptors = JSON.readTree(fromStdin.out).get("jobDescriptors");
    assertThat(descriptors).hasSize(3);
    assertThat(lookupJson(descriptors.get(2).asText()).get("body").asText()).isEqualTo("c");
  }

  @Test
  void enqueueWithAUniqueKeyPrintsTheHolderOfADuplicate() throws Exception {
    run("--mode", "create", "--queue", "mail");
    String first =
        run("--mode", "enqueue", "--queue", "mail", "--body", "a", "--unique_key", "user:7")
            .out
            .trim();
    Result again =
        run(
            "--mode",
            "enqueue",
            "--queue",
            "mail",
            "--body",
            "b",
            "--unique-key",
            "user:7",
            "--json");
    Result windowed =
        run(
            "--mode",
            "enqueue",
            "--queue",
            "mail",
            "--body",
            "c",
            "--unique_key",
            "other",
            "--unique_for",
            "10m");
    Result badWindow =
        run(
            "--mode",
            "enqueue",
            "--queue",
            "mail",
            "--body",
            "x",
            "--unique_key",
            "k",
            "--unique_for",
            "soon");

    assertThat(first).startsWith("mail:s").doesNotContain("duplicate");
    JsonNode reply = JSON.readTree(again.out);
    assertThat(reply.get("jobDescriptors").get(0).asText()).isEqualTo(first);
    assertThat(reply.get("duplicates").get(0).asBoolean()).isTrue();
    assertThat(windowed.code).as(windowed.err).isZero();
    assertThat(lookupJson(windowed.out.trim()).get("body").asText()).isEqualTo("c");
    assertThat(badWindow.code).isNotZero();
    assertThat(badWindow.err).contains("--unique_for 'soon' is not a duration");
  }

  @Test
  void enqueueRejectsClashingOrBadBodyOptionsWithUsageErrors() {
    run("--mode", "create", "--queue", "mail");
    Result both = run("--mode", "enqueue", "--queue", "mail", "--body", "x", "--stdin");
    assertThat(both.code).isEqualTo(2);
    assertThat(both.err).contains("exactly one of --body, --body_file and --stdin");
    Result missing =
        run("--mode", "enqueue", "--queue", "mail", "--body_file", dir.resolve("nope").toString());
    assertThat(missing.code).isEqualTo(2);
    assertThat(missing.err).contains("does not exist");
    Result badDelay = run("--mode", "enqueue", "--queue", "mail", "--body", "x", "--delay", "soon");
    assertThat(badDelay.code).isEqualTo(2);
    assertThat(badDelay.err).contains("--delay 'soon'", "30s");
    Result badTime =
        run("--mode", "enqueue", "--queue", "mail", "--body", "x", "--run_at", "tomorrow");
    assertThat(badTime.err).contains("--run_at 'tomorrow'", "ISO-8601");
    assertThat(run("--mode", "get_job_count", "--queue", "mail").out).contains("# jobs: 0");
  }

  @Test
  void lookupNeedsOnlyTheDescriptorAndAMissingJobExitsOne() {
    run("--mode", "create", "--queue", "mail");
    String id = run("--mode", "enqueue", "--queue", "mail", "--body", "hello").out.trim();

    Result found = run("--mode", "lookup", "--job_descriptor", id);
    assertThat(found.code).isZero();
    assertThat(found.out).startsWith(id + " PENDING").contains("body=hello");

    JobDescriptor parsed = JobDescriptor.parse(id);
    String missing =
        new JobDescriptor("mail", parsed.shard(), 1, parsed.localId() + 1000).toString();
    Result notFound = run("--mode", "lookup", "--job_descriptor", missing);
    assertThat(notFound.code).isEqualTo(1);
    assertThat(notFound.err).contains("Job not found: " + missing);
    assertThat(run("--mode", "lookup").code).isEqualTo(2);
  }

  @Test
  void scanPagesWithContinuationAndPrintsTheNextPageAsARunnableCommand() {
    run("--mode", "create", "--queue", "mail");
    runWithInput("1\n2\n3\n4\n5\n", "--mode", "enqueue", "--queue", "mail", "--stdin");

    Result first = run("--mode", "scan", "--queue", "mail", "--limit", "3");
    String hint =
        first
            .out
            .lines()
            .filter(l -> l.startsWith("# next page: "))
            .findFirst()
            .orElseThrow()
            .substring("# next page: ".length());
    assertThat(hint)
        .startsWith("flipper queue-tool --host 127.0.0.1 --port " + server.port() + " --mode scan");

    List<String> words = Arrays.asList(hint.split(" "));
    Result second = runExactly(words.subList(2, words.size()).toArray(String[]::new));
    assertThat(second.code).as(second.err).isZero();
    assertThat(second.out).contains("# jobs scanned: 2").doesNotContain("# next page");
    List<String> seen = new ArrayList<>(descriptors(first.out));
    seen.addAll(descriptors(second.out));
    assertThat(seen).hasSize(5).doesNotHaveDuplicates();
  }

  @Test
  void countShowsEveryStateAndPriorityWithFutureJobsInOneTable() throws Exception {
    run("--mode", "create", "--queue", "mail");
    runWithInput("a\nb\n", "--mode", "enqueue", "--queue", "mail", "--stdin", "--priority", "1");
    run(
        "--mode",
        "enqueue",
        "--queue",
        "mail",
        "--body",
        "later",
        "--priority",
        "3",
        "--run_at",
        "2100-01-01T00:00:00Z");
    client().dequeue("mail", 1);

    Result table = run("--mode", "count", "--queue", "mail");
    assertThat(table.code).isZero();
    List<String> lines = table.out.lines().toList();
    assertThat(lines.get(0)).contains("priority", "PENDING", "IN_PROGRESS", "SUCCEEDED", "FAILED");
    assertThat(lines.get(1).split("\\s+")).startsWith("1", "1", "1", "0", "0");
    assertThat(lines.get(3)).startsWith("3").contains("0 (+1 later)");
    assertThat(lines.get(4)).startsWith("all");

    List<String> failedOnly =
        run("--mode", "count", "--queue", "mail", "--job_state", "FAILED").out.lines().toList();
    assertThat(failedOnly.get(0)).contains("FAILED").doesNotContain("PENDING");

    JsonNode json = JSON.readTree(run("--mode", "count", "--queue", "mail", "--json").out);
    assertThat(json.get("counts")).hasSize(3 * 4);
    JsonNode p3Pending = json.get("counts").get(8);
    assertThat(p3Pending.get("state").asText()).isEqualTo("PENDING");
    assertThat(p3Pending.get("future").asInt()).isEqualTo(1);
  }

  @Test
  void retryFailedAndDeleteJobsCoverEveryPriorityAndDeleteAsksFirst() {
    run("--mode", "create", "--queue", "mail");
    for (int priority = 1; priority <= 3; priority++) {
      client()
          .enqueue(
              "mail",
              List.of(NewJob.of("p" + priority).withPriority(priority).withAttemptsAllowed(1)));
    }
    QueueClient client = client();
    var jobs = client.dequeue("mail", 3);
    client.ack(
        new dev.flipper.queue.AckParams(
            "mail",
            List.of(),
            jobs.stream().map(j -> dev.flipper.queue.AckParams.Item.of(j.descriptor())).toList()));

    Result noPassword = run("--mode", "retry_failed", "--queue", "mail");
    assertThat(noPassword.code).isEqualTo(1);
    assertThat(noPassword.err)
        .contains("PASSWORD_INVALID", "wrong admin password for retryFailedJobs of queue 'mail'");
    assertThat(run("--mode", "retry_failed", "--queue", "mail", "--password", ADMIN_PASSWORD).out)
        .contains("Retried jobs: 3");
    assertThat(run("--mode", "get_job_count", "--queue", "mail").out).contains("# jobs: 3");

    Result noState = run("--mode", "delete_jobs", "--queue", "mail");
    assertThat(noState.code).isEqualTo(2);
    assertThat(noState.err).contains("explicit --job_state");
    Result refused =
        runWithInput("n\n", "--mode", "delete_jobs", "--queue", "mail", "--job_state", "PENDING");
    assertThat(refused.code).isEqualTo(1);
    assertThat(refused.err)
        .contains(
            "Delete up to 1000 PENDING jobs of queue 'mail' (all priorities)?", "Nothing deleted");
    assertThat(run("--mode", "get_job_count", "--queue", "mail").out).contains("# jobs: 3");

    Result confirmed =
        runWithInput(
            "y\n",
            "--mode",
            "delete_jobs",
            "--queue",
            "mail",
            "--job_state",
            "0",
            "--priority",
            "2",
            "--password",
            ADMIN_PASSWORD);
    assertThat(confirmed.out).contains("Deleted jobs: 1");
    Result wrongPassword =
        run(
            "--mode",
            "delete_jobs",
            "--queue",
            "mail",
            "--job_state",
            "pending",
            "--yes",
            "--password",
            "wrong");
    assertThat(wrongPassword.code).isEqualTo(1);
    assertThat(wrongPassword.err).contains("PASSWORD_INVALID");
    assertThat(
            run(
                    "--mode",
                    "delete_jobs",
                    "--queue",
                    "mail",
                    "--job_state",
                    "pending",
                    "--yes",
                    "--password",
                    ADMIN_PASSWORD)
                .out)
        .contains("Deleted jobs: 2");
    assertThat(run("--mode", "get_job_count", "--queue", "mail").out).contains("# jobs: 0");
  }

  @Test
  void deleteJobRemovesOneJobByDescriptorAndAMissingOneExitsOne() {
    run("--mode", "create", "--queue", "mail");
    String id = run("--mode", "enqueue", "--queue", "mail", "--body", "doomed").out.trim();
    run("--mode", "enqueue", "--queue", "mail", "--body", "kept");

    assertThat(run("--mode", "delete_job", "--job_descriptor", id).out)
        .contains("Deleted job: " + id);
    Result again = run("--mode", "delete_job", "--job_descriptor", id);
    assertThat(again.code).isEqualTo(1);
    assertThat(again.err).contains("Job not found: " + id);
    assertThat(run("--mode", "get_job_count", "--queue", "mail").out).contains("# jobs: 1");
  }

  @Test
  void retryJobMovesOneFailedJobBackAndSaysWhyOthersWereNotRetried() throws Exception {
    run("--mode", "create", "--queue", "mail");
    QueueClient client = client();
    List<JobDescriptor> failed =
        client.enqueue(
            "mail",
            List.of(NewJob.of("a").withAttemptsAllowed(1), NewJob.of("b").withAttemptsAllowed(1)));
    var claimed = client.dequeue("mail", 2);
    client.ack(
        new dev.flipper.queue.AckParams(
            "mail",
            List.of(),
            claimed.stream()
                .map(j -> dev.flipper.queue.AckParams.Item.of(j.descriptor()))
                .toList()));
    String id = failed.get(0).toString();

    Result retried = run("--mode", "retry_job", "--job_descriptor", id, "--attempts_to_allow", "3");
    assertThat(retried.code).as(retried.err).isZero();
    assertThat(retried.out).contains("Retried job: " + id);
    JsonNode job = lookupJson(id);
    assertThat(job.get("state").asText()).isEqualTo("PENDING");
    assertThat(job.get("attemptsRemaining").asInt()).isEqualTo(3);
    assertThat(lookupJson(failed.get(1).toString()).get("state").asText()).isEqualTo("FAILED");

    Result again = run("--mode", "retry_job", "--job_descriptor", id, "--json");
    assertThat(again.code).isEqualTo(1);
    assertThat(again.err).contains("Job not retried: " + id + " is PENDING, not FAILED");
    JsonNode answer = JSON.readTree(again.out);
    assertThat(answer.get("retried").asBoolean()).isFalse();
    assertThat(answer.get("reason").asText()).isEqualTo("is PENDING, not FAILED");

    String missing = "mail:s1:p1:999999";
    Result notFound = run("--mode", "retry_job", "--job_descriptor", missing);
    assertThat(notFound.code).isEqualTo(1);
    assertThat(notFound.err).contains("Job not retried: " + missing + " not found");
    Result noQueue = run("--mode", "retry_job", "--job_descriptor", "nowhere:s1:p1:1");
    assertThat(noQueue.code).isEqualTo(1);
    assertThat(noQueue.err).contains("QUEUE_NOT_FOUND", "nowhere");
    Result malformed = run("--mode", "retry_job", "--job_descriptor", "mail:1:42");
    assertThat(malformed.code).as("a bad command line").isEqualTo(2);
    assertThat(malformed.err).contains("mail:1:42", "4 ':'-separated parts");
    assertThat(run("--mode", "retry_job").err)
        .contains("--job_descriptor is required for mode retry_job");
    assertThat(count(client, "mail", "FAILED")).isEqualTo(1);
  }

  @Test
  void pauseReachesEveryServerOverTheStoreAndResumeUndoesIt() {
    QueueServer other = serverOver(store, "other-server");
    closeLater.add(other);
    run("--mode", "create", "--queue", "mail");
    run("--mode", "enqueue", "--queue", "mail", "--body", "waiting");

    assertThat(run("--mode", "pause", "--queue", "mail").err).contains("PASSWORD_INVALID");
    assertThat(run("--mode", "pause", "--queue", "mail", "--password", ADMIN_PASSWORD).out)
        .contains("Paused queue: mail");
    try (QueueClient viaOther =
        QueueClient.builder().server("127.0.0.1", other.port()).source("test").build()) {
      assertThat(viaOther.dequeue(DequeueParams.of("mail", 5, "test"))).isEmpty();
      assertThat(viaOther.pausedQueues()).containsExactly("mail");
    }
    assertThat(runOn(other.port(), "--mode", "get_paused_queues").out)
        .contains("Paused queues: [mail]");
    assertThat(run("--mode", "check_dequeue", "--queue", "mail").out)
        .contains("Jobs available for dequeue: false");

    assertThat(
            runOn(other.port(), "--mode", "resume", "--queue", "mail", "--password", ADMIN_PASSWORD)
                .out)
        .contains("Resumed queue: mail");
    assertThat(client().dequeue("mail", 5)).hasSize(1);
    assertThat(
            run("--mode", "pause", "--queue", "never_created", "--password", ADMIN_PASSWORD).code)
        .isEqualTo(1);
  }

  @Test
  void serverErrorsExitOneWithTheServersCodeAndMessage() {
    Result badName = run("--mode", "create", "--queue", "bad-name");
    assertThat(badName.code).isEqualTo(1);
    assertThat(badName.err).contains("create failed: QUEUE_NAME_INVALID (410):", "bad-name");

    Result noQueue = run("--mode", "enqueue", "--queue", "missing", "--body", "x");
    assertThat(noQueue.code).isEqualTo(1);
    assertThat(noQueue.err).contains("QUEUE_NOT_FOUND (413)", "missing");

    run("--mode", "create", "--queue", "mail");
    Result badPriority =
        run("--mode", "enqueue", "--queue", "mail", "--body", "x", "--priority", "9");
    assertThat(badPriority.code).isEqualTo(1);
    assertThat(badPriority.err).contains("PRIORITY_NOT_SUPPORTED (416)", "allowed: 1..3");

    Result loadFailing = run("--mode", "enqueue", "--queue", "missing", "--num_queries", "2");
    assertThat(loadFailing.code).isEqualTo(1);
    assertThat(loadFailing.out).contains("failed: 2");
  }

  @Test
  void jsonOutputIsOneDocumentPerCall() throws Exception {
    assertThat(
            JSON.readTree(run("--mode", "create", "--queue", "mail", "--json").out)
                .get("created")
                .asText())
        .isEqualTo("mail");
    String id = run("--mode", "enqueue", "--queue", "mail", "--body", "x").out.trim();
    JsonNode scan = JSON.readTree(run("--mode", "scan", "--queue", "mail", "--json").out);
    assertThat(scan.get("jobs").get(0).get("descriptor").asText()).isEqualTo(id);
    assertThat(scan.get("continuation").isNull()).isTrue();
    assertThat(
            JSON.readTree(run("--mode", "get_queue_names", "--json").out)
                .get("queues")
                .get(0)
                .asText())
        .isEqualTo("mail");
  }

  @Test
  void hostAndPortDefaultToTheConfigsQueueServer() throws Exception {
    Path config =
        Files.writeString(dir.resolve("flipper.yaml"), "queue:\n  port: " + server.port() + "\n");
    Result fromFile =
        runExactly(
            "-c", config.toString(), "--host", "127.0.0.1", "--mode", "create", "--queue", "cfg");
    assertThat(fromFile.code).as(fromFile.err).isZero();
    Result fromSet =
        runExactly("--set", "queue.port=" + server.port(), "--mode", "get_queue_names");
    assertThat(fromSet.out).as(fromSet.err).contains("Queues: [cfg]");
  }

  @Test
  void versionAndHelpWork() {
    StringWriter out = new StringWriter();
    int code =
        Launcher.execute(
            new String[] {"queue-tool", "-V"}, new PrintWriter(out), new PrintWriter(out));
    assertThat(code).isZero();
    assertThat(out.toString()).startsWith("flipper ");

    StringWriter help = new StringWriter();
    assertThat(
            Launcher.execute(
                new String[] {"queue-tool", "--help"},
                new PrintWriter(help),
                new PrintWriter(help)))
        .isZero();
    assertThat(help.toString())
        .contains(
            "Usage: flipper queue-tool",
            "--mode",
            "delete_job",
            "pause, resume",
            "--continuation",
            "--json");
  }

  @Test
  void badModesAndMissingQueueAreUsageErrors() {
    Result unknown = run("--mode", "explode", "--queue", "q");
    assertThat(unknown.code).isEqualTo(2);
    assertThat(unknown.err).contains("unknown --mode 'explode'");
    assertThat(run("--mode", "create").err).contains("--queue is required");
    Result badState = run("--mode", "scan", "--queue", "q", "--job_state", "7");
    assertThat(badState.code).isEqualTo(2);
    assertThat(badState.err).contains("'7' is not a job state");
  }

  @Test
  @Tag("processes")
  void anEndlessLoadRunPrintsItsSummaryWhenStopped() throws Exception {
    run("--mode", "create", "--queue", "load");
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty(
                    "surefire.test.class.path", System.getProperty("java.class.path")),
                Launcher.class.getName(),
                "queue-tool",
                "--host",
                "127.0.0.1",
                "--port",
                String.valueOf(server.port()),
                "--mode",
                "enqueue",
                "--queue",
                "load",
                "--num_queries",
                "-1"));
    Path output = dir.resolve("load.out");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    Process process = builder.start();
    try (QueueClient client = client()) {
      // Stop once it has enqueued something; the per-second lines need at least one second of
      // running.
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  client.count(
                          new dev.flipper.queue.CountParams(
                              "load", dev.flipper.queue.JobState.PENDING, null, false, null))
                      > 0);
      process.destroy(); // SIGTERM; Ctrl-C (SIGINT) runs the same shutdown hooks
      assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(Files.readString(output))
          .containsPattern("Summary: [1-9][0-9]* queries \\(0 failed\\)");
    } finally {
      process.destroyForcibly();
    }
  }

  private JsonNode lookupJson(String descriptor) throws Exception {
    Result found = run("--mode", "lookup", "--job_descriptor", descriptor, "--json");
    assertThat(found.code).as(found.err).isZero();
    return JSON.readTree(found.out);
  }

  private static List<String> descriptors(String scanOutput) {
    return scanOutput.lines().filter(l -> !l.startsWith("#")).map(l -> l.split(" ")[0]).toList();
  }

  private QueueClient client() {
    QueueClient client =
        QueueClient.builder().server("127.0.0.1", server.port()).source("test").build();
    closeLater.add(client);
    return client;
  }

  private int count(QueueClient client, String queue, String state) {
    return client.count(
        new dev.flipper.queue.CountParams(
            queue, dev.flipper.queue.JobState.valueOf(state), null, false, null));
  }

  private int count(String state) {
    String out = run("--mode", "get_job_count", "--queue", "tool_q", "--job_state", state).out;
    return Integer.parseInt(out.replace("# jobs:", "").trim());
  }

  @Test
  void countingEveryPriorityAddsNoErrorToTheServersMetrics() throws Exception {
    com.codahale.metrics.MetricRegistry registry = new com.codahale.metrics.MetricRegistry();
    QueueServer counted =
        QueueServer.builder(
                QueueService.builder(store)
                    .serverId("counted")
                    .adminPasswordHash(PasswordHash.of(ADMIN_PASSWORD))
                    .build())
            .port(0)
            .bindHost("127.0.0.1")
            .metrics(registry)
            .build()
            .start();
    closeLater.add(counted);
    runOn(counted.port(), "--mode", "create", "--queue", "counted_q");

    Result count = runOn(counted.port(), "--mode", "count", "--queue", "counted_q");
    Result retry =
        runOn(
            counted.port(),
            "--mode",
            "retry_failed",
            "--queue",
            "counted_q",
            "--password",
            ADMIN_PASSWORD);

    assertThat(count.code).as(count.err).isZero();
    assertThat(retry.code).as(retry.err).isZero();
    assertThat(count.out.lines().filter(l -> l.matches("\\s*\\d+ .*")))
        .as("one row per priority level")
        .hasSize(QueueService.DEFAULT_PRIORITY_LEVELS);
    assertThat(registry.getCounters((name, metric) -> name.contains(".errors.")))
        .as("error counters")
        .isEmpty();
  }

  @Test
  void anUnreachableServerSaysWhichConfigNamedIt() throws Exception {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once closed
    }

    Result lookup =
        runExactly(
            "--mode", "lookup", "--job_descriptor", "q:s1:p1:1", "--set", "queue.port=" + closed);

    assertThat(lookup.code).isNotZero();
    assertThat(lookup.err)
        .contains("the server 127.0.0.1:" + closed + " came from ")
        .contains("; give -c FILE, set FLIPPER_CONFIG, or --host and --port");
  }

  private Result run(String... args) {
    return runWithInput("", args);
  }

  private Result runOn(int port, String... args) {
    List<String> all =
        new ArrayList<>(List.of("--host", "127.0.0.1", "--port", String.valueOf(port)));
    all.addAll(List.of(args));
    return execute("", all);
  }

  private Result runWithInput(String stdin, String... args) {
    List<String> all =
        new ArrayList<>(List.of("--host", "127.0.0.1", "--port", String.valueOf(server.port())));
    all.addAll(List.of(args));
    return execute(stdin, all);
  }

  private Result runExactly(String... args) {
    return execute("", List.of(args));
  }

  private static Result execute(String stdin, List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    QueueTool tool = new QueueTool();
    tool.in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    tool.clock = Clock.fixed(NOW, ZoneOffset.UTC);
    int code =
        new CommandLine(tool)
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  private record Result(int code, String out, String err) {}
}
