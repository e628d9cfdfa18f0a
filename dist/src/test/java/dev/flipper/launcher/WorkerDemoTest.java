package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flipper demo} outside a source checkout (the bundled example workflows), every port 0: its
 * etl instance runs to SUCCESS by itself and the printed commands name it; SIGTERM still stops it
 * cleanly.
 */
@Tag("processes")
class WorkerDemoTest {
  private static final Pattern STARTED = Pattern.compile(".*etl instance (\\d+) is running.*");
  private static final Pattern PORT = Pattern.compile(".*--set master.port=(\\d+).*");

  @TempDir Path dir;

  @Test
  void theDemosEtlInstanceRunsToSuccessByItself() throws Exception {
    try (FlipperProcess demo =
        FlipperProcess.start(
            dir,
            "demo",
            "--set",
            "queue.port=0",
            "--set",
            "queue.adminPort=0",
            "--set",
            "master.port=0",
            "--set",
            "master.adminPort=0",
            "--set",
            "scheduler.adminPort=0",
            "--set",
            "workers.adminPort=0",
            "--set",
            "ui.port=0",
            "--set",
            "ui.adminPort=0")) {
      demo.awaitReady(List.of("queue", "master", "scheduler", "workers", "ui"));
      await("the demo's hints")
          .atMost(Duration.ofSeconds(30))
          .until(() -> demo.out().stream().anyMatch(l -> STARTED.matcher(l).matches()));
      String instance = null;
      int port = 0;
      for (String line : demo.out()) {
        Matcher started = STARTED.matcher(line);
        if (started.matches()) {
          instance = started.group(1);
        }
        Matcher set = PORT.matcher(line);
        if (set.matches()) {
          port = Integer.parseInt(set.group(1));
        }
      }
      String id = instance;
      assertThat(demo.out()).anyMatch(l -> l.contains("flipper workflow status -w etl -i " + id));
      assertThat(demo.out())
          .anyMatch(l -> l.contains("flipper workflow logs -w etl -i " + id + " -j load"));
      assertThat(demo.out())
          .anyMatch(
              l -> l.startsWith("flipper: workers ready") && l.contains("logs http://127.0.0.1:"));
      try (TokenMasterClient client = TokenMasterClient.builder("127.0.0.1", port).build()) {
        WorkflowEngine engine = WorkflowEngine.builder(client).build();
        await("etl " + id + " ends")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(200))
            .until(
                () ->
                    engine.status().instance("etl", id).orElseThrow().summary().status()
                        != InstanceStatus.RUNNING);
        assertThat(engine.status().instance("etl", id).orElseThrow().summary().status())
            .as(demo.output())
            .isEqualTo(InstanceStatus.SUCCESS);
        assertThat(engine.definitions().list()).hasSize(3);
        String uiHint =
            demo.out().stream()
                .filter(l -> l.endsWith("# in the web UI"))
                .findFirst()
                .orElseThrow();
        URI instancePage = URI.create(uiHint.strip().split("\\s+")[1]);
        assertThat(instancePage.getPath()).isEqualTo("/workflows/etl/instances/" + id);
        HttpResponse<String> page =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(instancePage).build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains(id, "SUCCESS");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
            Launcher.execute(
                new String[] {
                  "workflow",
                  "logs",
                  "-w",
                  "etl",
                  "-i",
                  id,
                  "-j",
                  "load",
                  "--set",
                  "master.port=" + port,
                  "--host",
                  "127.0.0.1"
                },
                new PrintWriter(out),
                new PrintWriter(err));
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).startsWith("loading 3 rows from ").contains("1,ADA");
      }
      demo.sigterm();
      assertThat(demo.awaitExit(Duration.ofSeconds(60))).as(demo.output()).isZero();
      assertThat(demo.out()).contains("flipper: stopped cleanly");
    }
  }
}
