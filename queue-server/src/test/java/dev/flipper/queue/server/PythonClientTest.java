package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.JobState;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.ThriftJobQueue;
import dev.flipper.queue.worker.QueueWorker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-language: a Python client generated from our IDL with the stock Thrift compiler and
 * Debian's python3-thrift enqueues and looks up jobs; a Java {@link QueueWorker} runs them. Needs
 * thrift and /usr/bin/python3 with the thrift module; without them the test fails: run
 * scripts/ensure-services.sh.
 */
@Tag("tools")
class PythonClientTest {
  private static final Path IDL =
      Path.of("")
          .toAbsolutePath()
          .resolveSibling("thrift-wire")
          .resolve("src/main/thrift/pinlater.thrift");
  private static final String PYTHON = "/usr/bin/python3";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path generated;

  private final TestServer server = TestServer.start();

  @BeforeAll
  static void generatePythonCode() throws Exception {
    run(
        List.of("thrift", "--gen", "py", "-out", generated.toString(), IDL.toString()),
        "generating Python code");
    Path script = generated.resolve("pinlater_client.py");
    try (var in = PythonClientTest.class.getResourceAsStream("/python/pinlater_client.py")) {
      Files.write(script, in.readAllBytes());
    }
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void pythonEnqueuesAndLooksUpAJavaWorkerRunsTheJobs() throws Exception {
    Set<String> ran = ConcurrentHashMap.newKeySet();
    try (QueueClient client = server.client()) {
      client.createQueue("py_q");
      List<String> ids = JSON.readValue(python("enqueue", "py_q", "25"), new TypeReference<>() {});
      assertThat(ids).hasSize(25).allMatch(id -> id.startsWith("py_q:s"));

      Map<String, Map<String, Object>> before =
          JSON.readValue(python(lookupArgs(ids)), new TypeReference<>() {});
      assertThat(before).hasSize(25);
      assertThat(before.get(ids.get(0)))
          .containsEntry("state", "PENDING")
          .containsEntry("attemptsAllowed", 3)
          .containsEntry("customStatus", "from python")
          .containsEntry("body", "py-job-0");

      try (QueueWorker worker =
          QueueWorker.builder(
                  ThriftJobQueue.over(client), "py_q", job -> ran.add(job.bodyAsString()))
              .pollInterval(Duration.ofMillis(20))
              .ackInterval(Duration.ofMillis(20))
              .build()
              .start()) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> client.count(CountParams.of("py_q", JobState.SUCCEEDED)) == 25);
        assertThat(worker.stats().jobsSucceeded()).isEqualTo(25);
      }
      assertThat(ran).hasSize(25).contains("py-job-0", "py-job-24");

      Map<String, Map<String, Object>> after =
          JSON.readValue(python(lookupArgs(ids)), new TypeReference<>() {});
      assertThat(after.values())
          .allSatisfy(info -> assertThat(info).containsEntry("state", "SUCCEEDED"));

      Map<String, Object> error =
          JSON.readValue(python("enqueue_missing", "no_such_q"), new TypeReference<>() {});
      assertThat(error).containsEntry("errorCode", 413);
    }
  }

  private String python(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                PYTHON,
                generated.resolve("pinlater_client.py").toString(),
                generated.resolve("gen-py").toString(),
                String.valueOf(server.port())));
    command.addAll(List.of(args));
    return run(command, "running the Python client");
  }

  private static String[] lookupArgs(List<String> ids) {
    List<String> args = new ArrayList<>(List.of("lookup"));
    args.addAll(ids);
    return args.toArray(String[]::new);
  }

  private static String run(List<String> command, String what) throws Exception {
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(false).start();
    } catch (java.io.IOException e) {
      fail(
          what
              + " needs "
              + command.get(0)
              + " ("
              + e.getMessage()
              + "); run scripts/ensure-services.sh, which "
              + "installs thrift-compiler and python3-thrift");
      throw e;
    }
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail(what + " did not finish within 60 s");
    }
    String errText = new String(err, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      fail(
          what
              + " failed (exit "
              + process.exitValue()
              + "): "
              + errText
              + (errText.contains("No module named 'thrift'")
                  ? "\nrun scripts/ensure-services.sh (python3-thrift)"
                  : ""));
    }
    return new String(out, StandardCharsets.UTF_8);
  }
}
