package dev.flipper.workflow.worker.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs real {@code /bin/sh} processes. */
class ShellExecutionTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  @TempDir Path tmp;
  private Path work;
  private LogFiles logFiles;
  private ShellExecutor executor;
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @BeforeEach
  void setUp() throws IOException {
    work = Files.createDirectories(tmp.resolve("work"));
    logFiles = new LogFiles(tmp.resolve("logs"));
    executor =
        ShellExecutor.builder(logFiles)
            .killGrace(Duration.ofMillis(200))
            .drainTimeout(Duration.ofMillis(500))
            .build();
  }

  @AfterEach
  void tearDown() {
    threads.shutdownNow();
    executor.close();
  }

  private ExecutionParams.Builder job(String name, String command) {
    return ExecutionParams.builder("wf", "inst-1", name).command(command).workingDirectory(work);
  }

  private ExecutionResult run(ExecutionParams params) {
    return executor.prepare(params, ExecutionListener.NONE).run();
  }

  private CompletableFuture<ExecutionResult> start(ShellExecution execution) {
    return CompletableFuture.supplyAsync(execution::run, threads);
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }

  @Test
  void theCommandSeesItsIdentityExtraVariablesAndWorkingDirectory() throws IOException {
    ExecutionResult r =
        run(
            job(
                    "show",
                    "echo \"$FLIPPER_WORKFLOW $FLIPPER_INSTANCE $FLIPPER_JOB $FLIPPER_EXECUTION"
                        + " $FLIPPER_ATTEMPT\"; echo \"$PINBALL_WORKFLOW $PINBALL_INSTANCE $PINBALL_JOB $PINBALL_EXECUTION\";"
                        + " echo \"$FLIPPER_SCHEDULED_TIME $PATH_SET\"; pwd")
                .execution(4)
                .attempt(2)
                .environment("FLIPPER_SCHEDULED_TIME", "2026-01-01T00:00:00Z")
                .environment(Map.of("PATH_SET", "${PATH:+yes}", "FLIPPER_JOB", "overridden?"))
                .build());

    assertThat(r.exitCode()).isZero();
    assertThat(r.info()).startsWith("echo ");
    assertThat(r.stdout()).isEqualTo(logFiles.root().resolve("wf/inst-1/show.2.stdout"));
    assertThat(read(r.stdout()))
        .isEqualTo(
            "wf inst-1 show 5 2\nwf inst-1 show 4\n2026-01-01T00:00:00Z ${PATH:+yes}\n"
                + work.toRealPath()
                + "\n");
    assertThat(read(r.stderr())).isEmpty();
    assertThat(r.aborted()).isFalse();
    assertThat(r.cleanupExitCode()).isNull();
    assertThat(r.end()).isAfterOrEqualTo(r.start());
  }

  @Test
  void theWorkerEnvironmentIsPassedOn() throws IOException {
    ExecutionResult r = run(job("env", "echo \"$HOME\"").build());

    assertThat(read(r.stdout())).isEqualTo(System.getenv("HOME") + "\n");
  }

  @Test
  void logsEachStreamToItsOwnFileSplittingLongLinesAndKeepingAnUnfinishedLastLine()
      throws IOException {
    ExecutionResult r =
        run(
            job(
                    "out",
                    "printf 'one\\ntwo\\n'; printf 'err 1\\n' >&2;"
                        + " head -c 40960 /dev/zero | tr '\\0' x; echo; head -c 16384 /dev/zero | tr '\\0' y; echo;"
                        + " printf 'err 2' >&2; printf 'no newline'")
                .build());

    assertThat(r.exitCode()).isZero();
    String x = "x".repeat(16384);
    assertThat(read(r.stdout()))
        .isEqualTo(
            "one\ntwo\n"
                + x
                + "\n"
                + x
                + "\n"
                + "x".repeat(8192)
                + "\n"
                + "y".repeat(16384)
                + "\nno newline");
    assertThat(read(r.stderr())).isEqualTo("err 1\nerr 2");
  }

  /**
   * Issue #26: a job that wrote 70 MB kept all of it. Past workers.maxLogBytes the log keeps its
   * first and last halves, with a marker line saying how much was cut; the job is not held up.
   */
  @Test
  void aLogOverItsCapKeepsItsHeadAMarkerAndItsTailAndTheJobSucceeds() throws IOException {
    int cap = 64 * 1024;
    ShellExecutor capped =
        ShellExecutor.builder(logFiles)
            .killGrace(Duration.ofMillis(200))
            .drainTimeout(Duration.ofMillis(500))
            .maxLogBytes(cap)
            .build();
    try {
      ExecutionResult r =
          capped
              .prepare(
                  job("loud", "seq -f 'line %06g' 1 100000; seq -f 'err %06g' 1 4000 >&2").build(),
                  ExecutionListener.NONE)
              .run();

      assertThat(r.succeeded()).isTrue();
      StringBuilder all = new StringBuilder();
      for (int i = 1; i <= 100_000; i++) {
        all.append(String.format("line %06d\n", i));
      }
      String written = all.toString();
      long cut = written.length() - cap;
      assertThat(read(r.stdout()))
          .isEqualTo(
              written.substring(0, cap / 2)
                  + "\n--- flipper: "
                  + String.format("%,d", cut)
                  + " bytes cut here (workers.maxLogBytes = 64 KiB) ---\n"
                  + written.substring(written.length() - cap / 2));
      assertThat(LogCutMarker.find(read(r.stdout()))).contains(cut);
      // Over half the cap but under it: all of it, no marker.
      StringBuilder err = new StringBuilder();
      for (int i = 1; i <= 4000; i++) {
        err.append(String.format("err %06d\n", i));
      }
      assertThat(err.length()).isBetween(cap / 2, cap);
      assertThat(read(r.stderr())).isEqualTo(err.toString());
      try (var files = Files.list(r.stdout().getParent())) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrder("loud.1.stdout", "loud.1.stderr");
      }
    } finally {
      capped.close();
    }
  }

  @Test
  void aLongLineIsNotCutInsideAUtf8Character() throws IOException {
    // 16383 ASCII bytes then "é" (2 bytes): the cut at 16384 would fall inside it.
    ExecutionResult r =
        run(job("utf8", "head -c 16383 /dev/zero | tr '\\0' a; printf '\\303\\251'; echo").build());

    List<String> lines = Files.readAllLines(r.stdout(), StandardCharsets.UTF_8);
    assertThat(lines).containsExactly("a".repeat(16383), "é");
  }

  @Test
  void propertyLinesFromBothStreamsKeepDistinctValuesInOrder() {
    List<Map<String, List<String>>> seen = new CopyOnWriteArrayList<>();
    ExecutionListener listener =
        new ExecutionListener() {
          @Override
          public void onProperties(Map<String, List<String>> properties) {
            seen.add(properties);
          }
        };
    ShellExecution execution =
        executor.prepare(
            job(
                    "props",
                    "echo FLIPPER:k=v1; echo FLIPPER:k=v1 >&2;"
                        + " echo PINBALL:k=v2; echo 'FLIPPER:EVENT_ATTR:path=/data/a=b'; echo 'PINBALL:EVENT_ATTR:path=/x' >&2;"
                        + " echo FLIPPER:=ignored; echo FLIPPER:no_equals; echo ' FLIPPER:indented=no'; echo 'flipper:lower=no';"
                        + " printf 'FLIPPER:crlf=yes\\r\\n'; echo 'FLIPPER:empty='; printf 'FLIPPER:last=line'")
                .build(),
            listener);

    ExecutionResult r = execution.run();

    assertThat(r.properties()).containsOnlyKeys("k", "EVENT_ATTR:path", "crlf", "empty", "last");
    assertThat(r.properties().get("k")).containsExactly("v1", "v2");
    assertThat(r.properties().get("EVENT_ATTR:path")).containsExactlyInAnyOrder("/data/a=b", "/x");
    assertThat(r.properties().get("crlf")).containsExactly("yes");
    assertThat(r.properties().get("empty")).containsExactly("");
    assertThat(r.properties().get("last")).containsExactly("line");
    assertThat(r.eventAttributes()).containsOnlyKeys("path");
    assertThat(seen).isNotEmpty();
    assertThat(seen.get(seen.size() - 1)).isEqualTo(r.properties());
    assertThat(execution.properties()).isEqualTo(r.properties());
  }

  @Test
  void warnTimeoutFiresOnce() throws Exception {
    ManualTimer timer = new ManualTimer();
    try (ShellExecutor manual = ShellExecutor.builder(logFiles).timer(timer).build()) {
      AtomicInteger warnings = new AtomicInteger();
      ExecutionListener listener =
          new ExecutionListener() {
            @Override
            public void onWarnTimeout(Duration warnTimeout) {
              warnings.incrementAndGet();
            }
          };
      Path go = work.resolve("go");
      CompletableFuture<ExecutionResult> result =
          start(
              manual.prepare(
                  job("slow", "while [ ! -e go ]; do sleep 0.02; done; echo done")
                      .warnTimeout(Duration.ofMinutes(30))
                      .build(),
                  listener));

      await().atMost(WAIT).until(() -> timer.pending() == 1);
      timer.advance(Duration.ofMinutes(30));
      timer.advance(Duration.ofHours(5));
      assertThat(warnings).hasValue(1);
      Files.createFile(go);

      ExecutionResult r = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(r.exitCode()).isZero();
      assertThat(r.aborted()).isFalse();
      assertThat(warnings).hasValue(1);
    }
  }

  @Test
  void timersOfAFinishedExecutionAreCancelled() {
    ManualTimer timer = new ManualTimer();
    try (ShellExecutor manual = ShellExecutor.builder(logFiles).timer(timer).build()) {
      ExecutionResult r =
          manual
              .prepare(
                  job("quick", "true")
                      .warnTimeout(Duration.ofSeconds(1))
                      .abortTimeout(Duration.ofSeconds(2))
                      .build(),
                  ExecutionListener.NONE)
              .run();

      assertThat(r.exitCode()).isZero();
      assertThat(timer.pending()).isZero();
    }
  }

  @Test
  void abortTimeoutKillsTheWholeProcessGroupIncludingGrandchildren() throws Exception {
    Path pidFile = work.resolve("pid");
    ExecutionResult r =
        run(
            job("hang", "sleep 300 & echo $! > pid; echo started; wait")
                .abortTimeout(Duration.ofMillis(300))
                .build());

    assertThat(r.aborted()).isTrue();
    assertThat(r.timedOut()).isTrue();
    assertThat(r.abortReason()).contains("abort time-out");
    assertThat(r.exitCode()).isIn(-15, -9);
    assertThat(Duration.between(r.start(), r.end())).isLessThan(Duration.ofSeconds(10));
    assertGone(Long.parseLong(Files.readString(pidFile).trim()));
    assertThat(read(r.stdout())).isEqualTo("started\n");
    assertThat(read(r.stderr())).contains("[flipper] aborted: abort time-out");
  }

  @Test
  void aGrandchildThatIgnoresSigtermIsKilledAfterTheGrace() throws Exception {
    Path pidFile = work.resolve("pid");
    ShellExecution execution =
        executor.prepare(
            job(
                    "stubborn",
                    "sh -c 'trap \"\" TERM; echo $$ > pid; while :; do sleep 0.05; done' & wait")
                .build(),
            ExecutionListener.NONE);
    CompletableFuture<ExecutionResult> result = start(execution);
    await().atMost(WAIT).until(() -> Files.exists(pidFile) && Files.size(pidFile) > 0);

    execution.abort("stop");

    ExecutionResult r = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(r.aborted()).isTrue();
    assertGone(Long.parseLong(Files.readString(pidFile).trim()));
  }

  @Test
  void anExternalAbortKillsTheRunningJob() throws Exception {
    Path pidFile = work.resolve("pid");
    ShellExecution execution =
        executor.prepare(
            job("leased", "sleep 300 & echo $! > pid; wait").build(), ExecutionListener.NONE);
    CompletableFuture<ExecutionResult> result = start(execution);
    await().atMost(WAIT).until(() -> Files.exists(pidFile) && Files.size(pidFile) > 0);

    execution.abort("lease lost");
    execution.abort("second abort is ignored");

    ExecutionResult r = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(r.aborted()).isTrue();
    assertThat(r.timedOut()).isFalse();
    assertThat(r.abortReason()).isEqualTo("lease lost");
    assertThat(r.exitCode()).isNegative();
    assertGone(Long.parseLong(Files.readString(pidFile).trim()));
  }

  @Test
  @Tag("slow")
  void anAbortRacingTheStartNeverLeavesAProcessBehind() throws Exception {
    for (int i = 0; i < 20; i++) {
      String pid = "pid" + i;
      ShellExecution execution =
          executor.prepare(
              job("race" + i, "sleep 300 & echo $! > " + pid + "; wait").build(),
              ExecutionListener.NONE);
      CompletableFuture<ExecutionResult> result = start(execution);
      // Not a wait for a result: a varying head start so the abort lands before, during and after
      // the spawn.
      LockSupport.parkNanos(
          ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(20)));

      execution.abort("race " + i);

      ExecutionResult r = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(r.aborted()).isTrue();
      assertThat(r.exitCode()).isNotZero();
      Path pidFile = work.resolve(pid);
      if (Files.exists(pidFile) && Files.size(pidFile) > 0) {
        assertGone(Long.parseLong(Files.readString(pidFile).trim()));
      }
    }
  }

  @Test
  void anAbortBeforeTheSpawnPreventsIt() throws IOException {
    ShellExecution execution =
        executor.prepare(job("never", "touch ran").build(), ExecutionListener.NONE);

    execution.abort("workflow aborted");
    ExecutionResult r = execution.run();

    assertThat(r.aborted()).isTrue();
    assertThat(r.abortReason()).isEqualTo("workflow aborted");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(work.resolve("ran")).doesNotExist();
    assertThat(read(r.stderr())).contains("aborted before start: workflow aborted");
  }

  @Test
  void cleanupRunsAfterAFailureWithTheKillIdsAndAppendsToTheLogs() throws IOException {
    ExecutionResult r =
        run(
            job(
                    "cleanme",
                    "echo FLIPPER:kill_id=q1; echo FLIPPER:kill_id=q2; echo main-err >&2; exit 3")
                .cleanup(
                    "echo killing %(kill_id)s for \"$FLIPPER_JOB\"; echo cleanup-err >&2; exit 4")
                .build());

    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.cleanupExitCode()).isEqualTo(4);
    assertThat(read(r.stdout()))
        .isEqualTo(
            "FLIPPER:kill_id=q1\nFLIPPER:kill_id=q2\n"
                + "<<<<<<<<<< flipper: start of cleanup: echo killing 'q1,q2' for \"$FLIPPER_JOB\"; echo cleanup-err >&2; exit 4"
                + " >>>>>>>>>>\n"
                + "killing q1,q2 for cleanme\n"
                + "<<<<<<<<<< flipper: end of cleanup: exit code 4 >>>>>>>>>>\n");
    assertThat(read(r.stderr()))
        .startsWith("main-err\n<<<<<<<<<< flipper: start of cleanup:")
        .endsWith("cleanup-err\n<<<<<<<<<< flipper: end of cleanup: exit code 4 >>>>>>>>>>\n");
  }

  @Test
  void cleanupRunsAfterAnAbortToo() throws Exception {
    ShellExecution execution =
        executor.prepare(
            job("abortclean", "echo FLIPPER:kill_id=7; exec sleep 300")
                .cleanup("echo cleaned %(kill_id)s")
                .build(),
            ExecutionListener.NONE);
    CompletableFuture<ExecutionResult> result = start(execution);
    await().atMost(WAIT).until(() -> !execution.properties().isEmpty());

    execution.abort("stop");

    ExecutionResult r = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(r.exitCode()).isNegative();
    assertThat(r.cleanupExitCode()).isZero();
    assertThat(read(r.stdout())).contains("cleaned 7\n");
  }

  @Test
  void anAbortAfterTheCommandEndedDoesNotStopTheCleanupNorMarkTheResult() throws Exception {
    ShellExecution execution =
        executor.prepare(
            job("failed", "exit 5")
                .cleanup("touch cleaning; while [ ! -e go ]; do sleep 0.02; done; echo cleaned")
                .build(),
            ExecutionListener.NONE);
    CompletableFuture<ExecutionResult> result = start(execution);
    await().atMost(WAIT).until(() -> Files.exists(work.resolve("cleaning")));

    execution.abort("lease lost");
    Files.createFile(work.resolve("go"));

    ExecutionResult r = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(r.exitCode()).isEqualTo(5);
    assertThat(r.aborted()).isFalse();
    assertThat(r.cleanupExitCode()).isZero();
    assertThat(read(r.stdout())).contains("cleaned\n");
  }

  @Test
  void cleanupIsSkippedWithoutKillIdAndNotRunOnSuccess() throws IOException {
    ExecutionResult noId = run(job("noid", "exit 2").cleanup("touch cleaned-%(kill_id)s").build());
    ExecutionResult ok = run(job("ok", "true").cleanup("touch cleaned").build());
    ExecutionResult plain = run(job("plain", "exit 1").cleanup("touch plain-cleaned").build());

    assertThat(noId.cleanupExitCode()).isNull();
    assertThat(read(noId.stderr())).contains("cleanup not run");
    assertThat(ok.cleanupExitCode()).isNull();
    assertThat(work.resolve("cleaned")).doesNotExist();
    assertThat(work.resolve("cleaned-")).doesNotExist();
    assertThat(plain.cleanupExitCode()).isZero();
    assertThat(work.resolve("plain-cleaned")).exists();
  }

  @Test
  void aDisabledJobSucceedsWithoutRunning() {
    ExecutionResult r = run(job("off", "touch ran").disabled(true).build());

    assertThat(r.exitCode()).isZero();
    assertThat(r.info()).isEqualTo(ExecutionResult.DISABLED);
    assertThat(r.end()).isEqualTo(r.start());
    assertThat(r.stdout()).isNull();
    assertThat(work.resolve("ran")).doesNotExist();
  }

  @Test
  void exitCodesArePassedOnAndDeathBySignalIsNegative() {
    assertThat(run(job("three", "exit 3").build()).exitCode()).isEqualTo(3);
    assertThat(run(job("killed", "kill -9 $$").build()).exitCode()).isEqualTo(-9);
    assertThat(run(job("termed", "kill -TERM $$").build()).exitCode()).isEqualTo(-15);
    assertThat(run(job("child-killed", "sh -c 'kill -9 $$'").build()).exitCode()).isEqualTo(-9);
    assertThat(run(job("big", "exit 200").build()).exitCode()).isEqualTo(200);
  }

  @Test
  void aCommandThatCannotStartFailsWithExitCode1() throws IOException {
    ExecutionResult r =
        run(job("nowhere", "true").workingDirectory(tmp.resolve("missing")).build());

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.error()).contains("could not start");
    assertThat(read(r.stderr())).contains("could not start");
  }

  @Test
  void aBackgroundProcessHoldingTheOutputDoesNotHoldTheResult() throws Exception {
    // The JDK closes a dead process's pipes itself unless a reader is blocked on them at that
    // moment; the short
    // sleep makes sure ours is, which is the case that needs the drain time-out.
    ExecutionResult r =
        run(job("leaves", "sleep 300 & echo $! > pid; echo bye; sleep 0.2").build());
    try {
      assertThat(r.exitCode()).isZero();
      assertThat(Duration.between(r.start(), r.end())).isLessThan(Duration.ofSeconds(10));
      assertThat(read(r.stdout())).isEqualTo("bye\n");
      assertThat(read(r.stderr())).contains("background process still holds its output");
    } finally {
      ProcessHandle.of(Long.parseLong(Files.readString(work.resolve("pid")).trim()))
          .ifPresent(ProcessHandle::destroy);
    }
  }

  @Test
  void manyExecutionsAtOnceKeepTheirOwnLogs() throws Exception {
    int n = 20;
    List<CompletableFuture<ExecutionResult>> results = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = "job" + i;
      results.add(
          start(
              executor.prepare(
                  job(
                          name,
                          "i=0; while [ $i -lt 200 ]; do echo \"$FLIPPER_JOB $i\";"
                              + " echo \"err $FLIPPER_JOB\" >&2; i=$((i+1)); done; echo FLIPPER:EVENT_ATTR:name=$FLIPPER_JOB")
                      .build(),
                  ExecutionListener.NONE)));
    }
    for (int i = 0; i < n; i++) {
      ExecutionResult r = results.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS);
      String name = "job" + i;
      assertThat(r.exitCode()).isZero();
      assertThat(r.eventAttributes()).containsEntry("name", List.of(name));
      List<String> out = Files.readAllLines(r.stdout());
      assertThat(out).hasSize(201);
      for (int j = 0; j < 200; j++) {
        assertThat(out.get(j)).isEqualTo(name + " " + j);
      }
      assertThat(Files.readAllLines(r.stderr())).hasSize(200).containsOnly("err " + name);
    }
  }

  /** The process is gone (or a zombie waiting for a reaper, which is dead too). */
  private static void assertGone(long pid) {
    await().atMost(WAIT).until(() -> !isRunning(pid));
  }

  private static boolean isRunning(long pid) throws IOException {
    Path stat = Path.of("/proc/" + pid + "/stat");
    if (!Files.exists(stat)) {
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
    String s;
    try {
      s = Files.readString(stat);
    } catch (IOException e) {
      return false; // gone between the two calls
    }
    char state = s.charAt(s.lastIndexOf(')') + 2);
    return state != 'Z' && state != 'X';
  }
}
