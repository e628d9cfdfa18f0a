package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.testing.TestServices;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flipper bench ui}, in a tiny size: it records the archived runs it is asked for, every
 * page and its JSON answers (a row of figures each, none "answered" with another status), and it
 * removes its H2 file or MariaDB database (127.0.0.1:3306, a database of its own).
 */
// The default sizes take minutes: fail instead of waiting for a run that ignores its options.
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UiBenchCommandTest {
  private static final List<String> PAGES =
      List.of(
          "workflows",
          "workflow",
          "runs page 1",
          "runs FAILURE 7d",
          "runs search",
          "runs longest",
          "runs deep page",
          "grid 25",
          "job history",
          "archived inst",
          "instance",
          "job",
          "schedules",
          "workers",
          "queues");

  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int runTiny(String url) {
    return Launcher.execute(
        new String[] {
          "bench",
          "ui",
          "--url",
          url,
          "--workflows",
          "2",
          "--instances",
          "4",
          "--jobs",
          "40",
          "--executions",
          "10",
          "--archived",
          "40",
          "--queues",
          "1",
          "--queue-jobs",
          "20",
          "--requests",
          "2"
        },
        new PrintWriter(out),
        new PrintWriter(err));
  }

  @Test
  @Tag("slow")
  void recordsTheArchivedRunsTimesEveryPageAndDeletesItsH2File() throws IOException {
    assertThat(runTiny("jdbc:h2:file:" + dir.resolve("made/ui"))).as(out + "\n" + err).isZero();

    assertThat(out.toString())
        .contains("recorded 40 archived runs (36 of wf-0), 400 job executions")
        .doesNotContain("answered", "NaN");
    for (String page : PAGES) {
      assertThat(out.toString()).containsPattern("(?m)^" + page + " +html +\\d");
      assertThat(out.toString()).containsPattern("(?m)^" + page + " +json +\\d");
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  @Tag("mariadb")
  void onMariaDbDropsItsDatabase() throws Exception {
    TestServices.requireMariaDb();
    String server = "jdbc:mysql://127.0.0.1:3306/";
    String database =
        "flipper_bench_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    assertThat(runTiny(server + database)).as(out + "\n" + err).isZero();

    assertThat(out.toString())
        .contains("database " + database, "recorded 40 archived runs")
        .doesNotContain("answered", "NaN");
    try (Connection c = DriverManager.getConnection(server, "root", "");
        ResultSet rs = c.createStatement().executeQuery("SHOW DATABASES LIKE '" + database + "'")) {
      assertThat(rs.next()).as("database left behind").isFalse();
    }
  }
}
