package dev.flipper.launcher.queuetool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.launcher.Launcher;
import dev.flipper.queue.PasswordHash;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.server.QueueServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The client tool's modes against a real server on an ephemeral port (§11.2, §18 items 68-69). */
class QueueToolTest {
  private static final String ADMIN_PASSWORD = "test-admin-password";

  private final InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
  private final QueueServer server = QueueServer.builder(QueueService.builder(store).serverId("test-server")
          .adminPasswordHash(PasswordHash.of(ADMIN_PASSWORD)).build())
      .port(0).bindHost("127.0.0.1").shutdownGracePeriod(Duration.ofSeconds(2)).build().start();

  @AfterEach
  void stop() {
    server.close();
    store.close();
  }

  @Test
  void everyModeWorksEndToEnd() {
    assertThat(run("--mode", "create", "--queue", "tool_q").out).contains("Created queue: tool_q");

    Result enqueue = run("--mode", "enqueue", "--queue", "tool_q", "--num_queries", "20", "--batch_size", "3",
        "--concurrency", "4", "--priority", "2");
    assertThat(enqueue.out).contains("QPS: ").contains("p99 (ms): ").contains("Summary: 20 queries (0 failed)")
        .contains("Enqueue queries issued: 20");

    assertThat(run("--mode", "get_job_count", "--queue", "tool_q").out).contains("# jobs: 60");
    assertThat(run("--mode", "get_job_count", "--queue", "tool_q", "--priority", "1").out).contains("# jobs: 0");
    assertThat(run("--mode", "check_dequeue", "--queue", "tool_q").out).contains("Jobs available for dequeue: true");

    Result dequeue = run("--mode", "dequeue", "--queue", "tool_q", "--num_queries", "10", "--batch_size", "3",
        "--dequeue_success_percent", "0");
    assertThat(dequeue.out).as(dequeue.err).contains("Dequeue/ack queries issued: 10, failed: 0");
    // Every dequeued job was acked failed: none succeeded; with 2 attempts a job is pending again or, if it
    // was dequeued twice, failed.
    assertThat(run("--mode", "get_job_count", "--queue", "tool_q", "--job_state", "2").out).contains("# jobs: 0");
    assertThat(count("0") + count("3")).isEqualTo(60);
    assertThat(count("1")).isZero();

    Result scan = run("--mode", "scan", "--queue", "tool_q", "--limit", "5");
    assertThat(scan.out).contains("# jobs scanned: 5").contains(" PENDING ");
    String descriptor = scan.out.lines().filter(line -> line.startsWith("tool_q:")).findFirst().orElseThrow()
        .split(" ")[0];
    assertThat(run("--mode", "lookup", "--job_descriptor", descriptor, "--queue", "tool_q").out)
        .contains(descriptor).contains("body=task_");

    assertThat(run("--mode", "delete_jobs", "--queue", "tool_q", "--priority", "2", "--limit", "7").out)
        .contains("Deleted jobs: 7");
    assertThat(run("--mode", "retry_failed", "--queue", "tool_q", "--priority", "2").out).contains("Retried jobs: 0");
    assertThat(run("--mode", "get_queue_names").out).contains("Queues: [tool_q]");
    assertThat(run("--mode", "delete_queue", "--queue", "tool_q", "--password", "wrong").code).isEqualTo(1);
    assertThat(run("--mode", "delete_queue", "--queue", "tool_q", "--password", ADMIN_PASSWORD).out)
        .contains("Deleted queue: tool_q");
  }

  @Test
  void theLauncherRunsItAsFlipperQueueTool() {
    StringWriter out = new StringWriter();
    int code = Launcher.execute(new String[] {"queue-tool", "--help"}, new PrintWriter(out), new PrintWriter(out));

    assertThat(code).isZero();
    assertThat(out.toString()).contains("Usage: flipper queue-tool", "--mode", "Modes: create, enqueue, dequeue");
  }

  @Test
  void badModesAndMissingQueueAreUsageErrors() {
    Result unknown = run("--mode", "explode", "--queue", "q");
    assertThat(unknown.code).isEqualTo(2);
    assertThat(unknown.err).contains("unknown --mode 'explode'");
    assertThat(run("--mode", "create").err).contains("--queue is required");
  }

  private int count(String state) {
    String out = run("--mode", "get_job_count", "--queue", "tool_q", "--job_state", state).out;
    return Integer.parseInt(out.replace("# jobs:", "").trim());
  }

  private Result run(String... args) {
    List<String> all = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", String.valueOf(server.port())));
    all.addAll(List.of(args));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = new CommandLine(new QueueTool()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
        .execute(all.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  private record Result(int code, String out, String err) {}
}
