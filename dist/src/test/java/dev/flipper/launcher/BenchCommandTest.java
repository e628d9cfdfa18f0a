package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.testing.TestServices;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * {@code flipper bench ...} through the launcher, in-process: help and bad options touch nothing,
 * and a short run writes only under its own prefix, file or database and removes it. Uses the Redis
 * on 127.0.0.1:6379 (under this test's key prefix) and the MariaDB on 127.0.0.1:3306 (a database of
 * its own).
 */
// A benchmark that ignores its options runs for half a minute: fail instead of waiting for it.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BenchCommandTest {
  private static final String MARIADB = "jdbc:mysql://127.0.0.1:3306/";

  @TempDir Path dir;

  private final String prefix = "bench_test_" + UUID.randomUUID().toString().substring(0, 8) + ":";
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /**
   * The tests tagged redis or mariadb need that service (./flipper test --unit leaves them out);
   * the others none.
   */
  @BeforeEach
  void requireServices(TestInfo test) {
    if (test.getTags().contains("redis")) {
      TestServices.requireRedis();
    }
    if (test.getTags().contains("mariadb")) {
      TestServices.requireMariaDb();
    }
  }

  @AfterEach
  void deleteLeftovers(TestInfo test) {
    if (!test.getTags().contains("redis")) {
      return;
    }
    try (Jedis jedis = new Jedis("127.0.0.1", 6379)) {
      for (String key : keys(jedis, prefix + "*")) {
        jedis.del(key);
      }
    }
  }

  /** The first group of {@code regex} in what the command printed. */
  private String printed(String regex) {
    Matcher matcher = Pattern.compile(regex).matcher(out.toString());
    assertThat(matcher.find()).as("output matching %s in:%n%s", regex, out).isTrue();
    return matcher.group(1);
  }

  private int run(String... args) {
    return Launcher.execute(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  @Tag("redis")
  void helpPrintsUsageAndWritesNothing() throws Exception {
    long benchKeys = countKeys("flipper_bench_*");

    assertThat(run("bench", "redis", "--key-prefix", prefix, "--help")).isZero();
    assertThat(run("bench", "jdbc", "--url", "jdbc:h2:file:" + dir.resolve("queue"), "--help"))
        .isZero();
    assertThat(run("bench", "tokens", "--url", "jdbc:h2:file:" + dir.resolve("tokens"), "--help"))
        .isZero();
    assertThat(run("bench", "workflows", "--url", "jdbc:h2:file:" + dir.resolve("wf"), "--help"))
        .isZero();

    assertThat(out.toString())
        .contains(
            "Usage: flipper bench redis",
            "--key-prefix",
            "--db",
            "Usage: flipper bench jdbc",
            "--url",
            "Usage: flipper bench tokens",
            "WRITES DATA",
            "Usage: flipper bench workflows",
            "--fanout");
    assertThat(err.toString()).isEmpty();
    assertThat(countKeys(prefix + "*")).isZero();
    assertThat(countKeys("flipper_bench_*")).isEqualTo(benchKeys);
    assertThat(filesIn(dir)).isEmpty();
  }

  @Test
  @Tag("redis")
  void misspelledOptionIsAnErrorThatNamesIt() {
    assertThat(run("bench", "redis", "--key-prefix", prefix, "--sekonds", "1")).isEqualTo(2);
    assertThat(err.toString())
        .contains("Unknown option", "'--sekonds'", "Possible solutions: --seconds");
    assertThat(countKeys(prefix + "*")).isZero();

    assertThat(run("bench", "jdbc", "--url", "jdbc:h2:file:" + dir.resolve("queue"), "--sekonds=1"))
        .isEqualTo(2);
    assertThat(run("bench", "tokens", "--url", "jdbc:h2:file:" + dir.resolve("tokens"), "--thrfit"))
        .isEqualTo(2);
    assertThat(
            run(
                "bench",
                "workflows",
                "--url",
                "jdbc:h2:file:" + dir.resolve("wf"),
                "--fanuot",
                "5"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("'--sekonds=1'", "'--thrfit'", "--thrift", "'--fanuot'", "--fanout");
    assertThat(out.toString()).isEmpty();
    assertThat(filesIn(dir)).isEmpty();
  }

  @Test
  void mariaDbUrlIsRefusedWithTheMysqlUrlToUse() {
    assertThat(run("bench", "jdbc", "--url", "jdbc:mariadb://127.0.0.1:3306/", "--seconds", "1"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("--url is a jdbc:mariadb: URL", "write 'jdbc:mysql://127.0.0.1:3306/'");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  @Tag("redis")
  void redisRunDeletesEveryKeyItWrote() {
    int code =
        run(
            "bench",
            "redis",
            "--key-prefix",
            prefix,
            "--seconds",
            "1",
            "--warmup",
            "0",
            "--threads",
            "2",
            "--redis-benchmark-requests",
            "200");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("RESULT:", "key prefix " + prefix, "deleted ")
        .doesNotContain("NaN");
    // redis-benchmark ran, on key names under the prefix only.
    assertThat(out.toString().lines().filter(l -> l.startsWith("$ redis-benchmark")).toList())
        .hasSize(7)
        .filteredOn(l -> !l.contains("EVAL"))
        .allMatch(l -> l.contains(prefix + "rb:"));
    assertThat(countKeys(prefix + "*")).isZero();
  }

  @Test
  @Tag("redis")
  void redisRefusesAPrefixThatHasKeys() {
    try (Jedis jedis = new Jedis("127.0.0.1", 6379)) {
      jedis.set(prefix + "someone", "data");
    }

    assertThat(
            run(
                "bench",
                "redis",
                "--key-prefix",
                prefix,
                "--seconds",
                "1",
                "--skip-redis-benchmark"))
        .isEqualTo(2);

    assertThat(err.toString()).contains("has keys under '" + prefix + "'", "--key-prefix");
    try (Jedis jedis = new Jedis("127.0.0.1", 6379)) {
      assertThat(jedis.get(prefix + "someone")).isEqualTo("data");
    }
  }

  @Test
  @Tag("slow")
  void h2RunsDeleteTheirFiles() {
    Path queueDb = dir.resolve("made/by/bench/queue");
    assertThat(
            run(
                "bench",
                "jdbc",
                "--url",
                "jdbc:h2:file:" + queueDb,
                "--seconds",
                "1",
                "--warmup",
                "0",
                "--repeat",
                "1",
                "--threads",
                "2",
                "--phases",
                "enqueue100,cycle"))
        .as(err.toString())
        .isZero();
    assertThat(
            run(
                "bench",
                "tokens",
                "--url",
                "jdbc:h2:file:" + dir.resolve("tokens"),
                "--seconds",
                "1",
                "--threads",
                "2",
                "--claim-tokens",
                "20"))
        .as(err.toString())
        .isZero();

    assertThat(out.toString())
        .contains(
            "full cycle, batch 100", "modify (1 update per call)", "queryAndOwn (1 token per call)")
        .doesNotContain("NaN");
    assertThat(filesIn(dir)).isEmpty();
  }

  @Test
  @Tag("slow")
  void workflowsRunDeletesItsH2FileAndJobLogs() {
    assertThat(
            run(
                "bench",
                "workflows",
                "--url",
                "jdbc:h2:file:" + dir.resolve("made/wf"),
                "--workers",
                "2",
                "--chain",
                "3",
                "--fanout",
                "4",
                "--thrift"))
        .as(err.toString())
        .isZero();

    assertThat(out.toString())
        .contains(
            "H2 file " + dir.resolve("made/wf"), "chain of 3", "fan-out of 4", "master calls/job")
        .doesNotContain("NaN");
    assertThat(filesIn(dir)).isEmpty();
    // The run's own log directory, as printed: other runs on this machine may hold theirs
    // meanwhile.
    Path logs = Path.of(printed("job logs in (\\S+),"));
    assertThat(logs.getFileName().toString()).startsWith("flipper-bench-wf-");
    assertThat(logs).doesNotExist();
  }

  @Test
  void tokensByDefaultUseANewH2FileAndDeleteIt() {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));

    assertThat(run("bench", "tokens", "--seconds", "1", "--threads", "2", "--claim-tokens", "20"))
        .as(err.toString())
        .isZero();

    // Only this run's file is checked: other runs on this machine may hold theirs meanwhile.
    Path file =
        Path.of(
            printed(
                "H2 file (" + Pattern.quote(tmp.toAbsolutePath() + "/flipper_bench_") + "\\w+)"));
    assertThat(
            filesIn(tmp).stream()
                .filter(p -> p.getFileName().toString().startsWith(file.getFileName().toString())))
        .isEmpty();
  }

  @Test
  @Tag("slow")
  void fuzzSendsItsInputsToBothServersAndPrintsTheirFigures() {
    assertThat(run("bench", "fuzz", "--inputs", "2000", "--clients", "2", "--seed", "7"))
        .as(err.toString())
        .isZero();

    assertThat(printed("queue server: (\\d+) inputs in")).isEqualTo("2000");
    assertThat(printed("token master: (\\d+) inputs in")).isEqualTo("2000");
    assertThat(printed("queue server: .*normal client: \\d+ calls, (\\d+) failed")).isEqualTo("0");
    assertThat(printed("token master: .*normal client: \\d+ calls, (\\d+) failed")).isEqualTo("0");
    assertThat(out.toString())
        .contains("seed 7", "inputs/s", "slowest", "heap growth", "RSS", "log")
        .doesNotContain("STOPPED");
    assertThat(run("bench", "fuzz", "--inputs", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--inputs must be >= 1");
  }

  @Test
  void cliTimesEachCommandAsAChildProcessAndPrintsAVerdict() throws Exception {
    Path stub = dir.resolve("flipper");
    Files.writeString(stub, "#!/bin/sh\necho \"$@\" >> " + dir.resolve("calls.txt") + "\n");
    assertThat(stub.toFile().setExecutable(true)).isTrue();

    assertThat(run("bench", "cli", "--flipper", stub.toString(), "--runs", "3"))
        .as(err.toString())
        .isZero();

    assertThat(out.toString())
        .contains("3 runs per command", "goal <= 0.3 s wall, <= 0.4 CPU-s")
        .containsPattern(
            "workflow status: +wall median \\d+\\.\\d\\d s, max \\d+\\.\\d\\d s; CPU median"
                + " \\d+\\.\\d\\d s, max \\d+\\.\\d\\d s; 0 failed: goal (met|MISSED)")
        .contains("workflow start:", "queue-tool lookup:");
    List<String> calls = Files.readAllLines(dir.resolve("calls.txt"));
    assertThat(calls).hasSize(2 + 3 * 3);
    assertThat(calls.get(0)).startsWith("workflow apply --set master.port=");
    assertThat(calls)
        .filteredOn(c -> c.startsWith("queue-tool") && c.contains("--mode lookup"))
        .hasSize(3);
  }

  @Test
  void cliRefusesBadArgumentsAndARunOutsideADistribution() {
    assertThat(run("bench", "cli", "--runs", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--runs must be >= 1");
    assertThat(run("bench", "cli", "--flipper", dir.resolve("none").toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains("run it as bin/flipper bench cli from a distribution folder");
  }

  @Test
  void h2RefusesAnExistingFile() throws Exception {
    Path existing = Files.writeString(dir.resolve("data.mv.db"), "someone's data");

    assertThat(
            run("bench", "jdbc", "--url", "jdbc:h2:file:" + dir.resolve("data"), "--seconds", "1"))
        .isEqualTo(2);

    assertThat(err.toString()).contains("exists", "name a new one");
    assertThat(Files.readString(existing)).isEqualTo("someone's data");
  }

  @Test
  @Tag("mariadb")
  void mariaDbRunDropsItsDatabase() throws Exception {
    String database =
        "flipper_bench_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    int code =
        run(
            "bench",
            "jdbc",
            "--url",
            MARIADB + database,
            "--seconds",
            "1",
            "--warmup",
            "0",
            "--repeat",
            "1",
            "--threads",
            "2",
            "--phases",
            "cycle");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("database " + database, "full cycle, batch 100")
        .doesNotContain("NaN");
    try (Connection c = DriverManager.getConnection(MARIADB, "root", "");
        ResultSet rs = c.createStatement().executeQuery("SHOW DATABASES LIKE '" + database + "'")) {
      assertThat(rs.next()).as("database left behind").isFalse();
    }
  }

  @Test
  @Tag("mariadb")
  void mariaDbRefusesAnExistingDatabase() {
    assertThat(run("bench", "jdbc", "--url", MARIADB + "mysql", "--seconds", "1")).isEqualTo(2);

    assertThat(err.toString()).contains("database 'mysql' exists", "name a new one");
  }

  private static long countKeys(String pattern) {
    try (Jedis jedis = new Jedis("127.0.0.1", 6379)) {
      return keys(jedis, pattern).size();
    }
  }

  private static List<String> keys(Jedis jedis, String pattern) {
    List<String> keys = new ArrayList<>();
    ScanParams params = new ScanParams().match(pattern).count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = jedis.scan(cursor, params);
      keys.addAll(page.getResult());
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return keys;
  }

  private static List<Path> filesIn(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
