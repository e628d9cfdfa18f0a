package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting and stopping modes in-process, including a mode that cannot start. */
class ModeRunnerTest {
  @TempDir Path dir;

  /**
   * Every port 0 and the H2 database under the temp dir, so a demo on the default ports can run
   * beside.
   */
  private FlipperConfig config(String... sets) {
    List<String> all =
        new java.util.ArrayList<>(
            List.of(
                "storage.jdbc.shards=[{name: '1', url: 'jdbc:h2:file:"
                    + dir.resolve("flipper")
                    + ";MODE=MySQL'}]",
                "queue.port=0",
                "master.port=0",
                "ui.port=0",
                "queue.adminPort=0",
                "master.adminPort=0",
                "scheduler.adminPort=0",
                "workers.adminPort=0",
                "ui.adminPort=0"));
    all.addAll(List.of(sets));
    return ConfigLoader.defaults(all, Map.of());
  }

  @Test
  void aModeThatCannotStartIsNamedAndTheStartedOnesStop() throws Exception {
    StringWriter out = new StringWriter();
    try (ServerSocket taken = new ServerSocket(0)) {
      ModeRunner runner =
          new ModeRunner(
              config("scheduler.adminPort=" + taken.getLocalPort()), new PrintWriter(out));

      assertThatThrownBy(() -> runner.start(List.of(Mode.MASTER, Mode.SCHEDULER, Mode.UI)))
          .isInstanceOf(ModeRunner.ModeStartException.class)
          .hasMessageStartingWith(
              "scheduler failed to start: admin server 'scheduler' cannot listen on 127.0.0.1:"
                  + taken.getLocalPort()
                  + ": ");

      assertThat(out.toString())
          .startsWith("flipper: master ready, admin http://127.0.0.1:")
          .doesNotContain("ui ready");
      String masterHealth = runner.running().get(0).adminUrl() + "/health";
      assertThat(runner.closeAll()).isTrue();
      assertThat(runner.running()).isEmpty();
      assertThatThrownBy(() -> FlipperProcess.get(masterHealth))
          .as("admin server closed")
          .isInstanceOf(java.io.IOException.class);
    }
  }

  @Test
  void queueModeIsReadyOnceTheStoreIsOpenAndStopsCleanly() throws Exception {
    ModeRunner runner = new ModeRunner(config(), new PrintWriter(new StringWriter()));
    runner.start(List.of(Mode.QUEUE));
    try {
      ModeRunner.Running queue = runner.running().get(0);
      assertThat(queue.daemon().readiness())
          .containsEntry("store", true)
          .containsEntry("shards", true)
          .containsEntry("monitor", true);
      HttpResponse<String> stats = FlipperProcess.get(queue.adminUrl() + "/stats.txt");
      assertThat(stats.body().lines()).contains("queue.shards.healthy: 1", "queue.shards.total: 1");
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }

  @Test
  void uiDashboardReadsTheQueueServerStartedBeforeItInThisJvm() throws Exception {
    ModeRunner runner = new ModeRunner(config(), new PrintWriter(new StringWriter()));
    runner.start(List.of(Mode.QUEUE, Mode.UI));
    try {
      String thrift = runner.running().get(0).daemon().endpoints().get(0);
      int queuePort = Integer.parseInt(thrift.substring("thrift port ".length()));
      try (dev.flipper.queue.client.QueueClient client =
          dev.flipper.queue.client.QueueClient.builder()
              .server("127.0.0.1", queuePort)
              .source("test")
              .build()) {
        client.createQueue("demo");
      }
      String web = runner.running().get(1).daemon().endpoints().get(0);
      HttpResponse<String> queues =
          FlipperProcess.get(web.substring("web UI ".length()) + "api/queues");
      assertThat(queues.statusCode()).as(queues.body()).isEqualTo(200);
      assertThat(queues.body())
          .contains("\"servers\":\"127.0.0.1:" + queuePort + "\"", "\"name\":\"demo\"");
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }

  @Test
  void uiReadsTheMasterStartedBeforeItInThisJvm() throws Exception {
    ModeRunner runner = new ModeRunner(config(), new PrintWriter(new StringWriter()));
    runner.start(List.of(Mode.MASTER, Mode.UI));
    try {
      String web = runner.running().get(1).daemon().endpoints().get(0);
      assertThat(web).startsWith("web UI http://127.0.0.1:");
      HttpResponse<String> status =
          FlipperProcess.get(web.substring("web UI ".length()) + "api/status");
      assertThat(status.statusCode()).isEqualTo(200);
      assertThat(status.body()).isEqualTo("{\"signals\":[],\"masterProblem\":null}");
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }
}
