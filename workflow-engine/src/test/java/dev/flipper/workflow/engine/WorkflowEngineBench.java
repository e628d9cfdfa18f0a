package dev.flipper.workflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.tokens.ConflictRetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A repeatable measurement of the engine's hops, not part of the default suite (the name does not
 * end in Test): N in-process workers (threads that claim, start and finish at once, no process) run
 * a 1,000-job fan-out (one root, 998 parallel jobs, one join) and a 100-job chain, on each backend;
 * prints the time from start to the instance's end, master calls per job, tokens read per job and
 * conflict retries.
 *
 * <pre>
 * mvn -o -B -q -pl workflow-master -am verify -Dtest=WorkflowEngineBench -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dbench.backends=memory,h2,mariadb -Dbench.workers=4 -Dbench.runs=1
 * </pre>
 *
 * The figures go to {@code
 * workflow-master/target/surefire-reports/*WorkflowEngineBench-output.txt}.
 */
class WorkflowEngineBench {
  static final Duration LEASE = Duration.ofMinutes(5);

  @Test
  void bench() throws Exception {
    int workers = Integer.getInteger("bench.workers", 4);
    int runs = Integer.getInteger("bench.runs", 1);
    for (String backend : System.getProperty("bench.backends", "memory,h2,mariadb").split(",")) {
      for (int run = 0; run < runs; run++) {
        measure(backend, "fanout", fanOut(), 1000, workers);
        measure(backend, "chain", chain(), 100, workers);
      }
    }
  }

  static WorkflowDefinition fanOut() {
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder("fan").job(job("root"));
    List<String> middle = new ArrayList<>();
    for (int i = 0; i < 998; i++) {
      middle.add("p" + i);
      builder.job(job("p" + i, "root"));
    }
    return builder.job(job("join", middle.toArray(String[]::new))).build();
  }

  static WorkflowDefinition chain() {
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder("chain").job(job("c0"));
    for (int i = 1; i < 100; i++) {
      builder.job(job("c" + i, "c" + (i - 1)));
    }
    return builder.build();
  }

  static JobDefinition.Builder job(String name, String... needs) {
    return JobDefinition.builder(name).command("run " + name).needs(needs);
  }

  void measure(String backend, String shape, WorkflowDefinition definition, int jobs, int workers)
      throws Exception {
    AutoCloseable closer;
    TokenMaster base;
    TestDatabases databases = new TestDatabases();
    switch (backend) {
      case "memory" -> {
        base = TokenService.builder(InMemoryTokenStore.create()).build();
        closer = databases;
      }
      case "h2" -> {
        Path dir = Files.createTempDirectory("flipper-bench-h2");
        JdbcTokenStore store = JdbcTokenStore.open(TestDatabases.h2Tokens(dir));
        base = TokenService.builder(store).build();
        closer =
            () -> {
              store.close();
              databases.close();
            };
      }
      case "mariadb" -> {
        JdbcTokenStore store =
            JdbcTokenStore.open(
                TestDatabases.mariaDbTokens(databases.newMariaDb()).withPoolSize(workers + 2));
        base = TokenService.builder(store).build();
        closer =
            () -> {
              store.close();
              databases.close();
            };
      }
      default ->
          throw new IllegalArgumentException("backend " + backend + ": memory, h2 or mariadb");
    }
    try (closer) {
      CountingTokenMaster master = new CountingTokenMaster(base);
      WorkflowEngine engine = WorkflowEngine.builder(master).build();
      engine.definitions().apply(List.of(definition));
      master.reset();
      long retriesBefore = ConflictRetry.retries();
      String load = Files.readString(Path.of("/proc/loadavg")).trim();
      long t0 = System.nanoTime();
      engine.instances().start(definition.name());
      AtomicReference<InstanceStatus> ended = new AtomicReference<>();
      // When the first job finished and the last one was claimed: the fan-out's root and join
      // phases.
      java.util.concurrent.atomic.AtomicLong firstDone =
          new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicLong lastClaimed =
          new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicLong emptyClaims =
          new java.util.concurrent.atomic.AtomicLong();
      ExecutorService pool = Executors.newFixedThreadPool(workers);
      List<Future<Integer>> futures = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      for (int w = 0; w < workers; w++) {
        String worker = "worker-" + w;
        futures.add(
            pool.submit(
                () -> {
                  int ran = 0;
                  while (ended.get() == null && System.nanoTime() < deadline) {
                    Optional<ClaimedJob> claimed = engine.claim(worker, LEASE);
                    if (claimed.isEmpty()) {
                      emptyClaims.incrementAndGet();
                      Thread.sleep(1); // an idle worker (no long-poll on the engine yet)
                      continue;
                    }
                    ClaimedJob job = claimed.get();
                    if (job.job().equals("join") || job.job().equals("c99")) {
                      lastClaimed.set(System.nanoTime());
                    }
                    engine.start(job, new ExecutionStart(job.command(), "host", Map.of()));
                    engine
                        .finish(
                            job,
                            ExecutionResult.exit(0, Map.of("EVENT_ATTR:v", List.of(job.job()))))
                        .instanceEnded()
                        .ifPresent(ended::set);
                    firstDone.compareAndSet(0, System.nanoTime());
                    ran++;
                  }
                  return ran;
                }));
      }
      pool.shutdown();
      int ran = 0;
      for (Future<Integer> future : futures) {
        ran += future.get(6, TimeUnit.MINUTES);
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      long retries = ConflictRetry.retries() - retriesBefore;
      String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
      System.out.printf(
          "BENCH backend=%s shape=%s jobs=%d workers=%d status=%s seconds=%.2f calls/job=%.2f (modify %.2f, query"
              + " %.2f, queryAndOwn %.2f) tokensRead/job=%.1f retries=%d emptyClaims=%d firstJobDone=%.2fs"
              + " lastJobClaimed=%.2fs load=[%s] -> [%s]%n",
          backend,
          shape,
          jobs,
          workers,
          ended.get(),
          seconds,
          (double) master.calls() / jobs,
          (double) master.modifies.get() / jobs,
          (double) master.queries.get() / jobs,
          (double) master.claims.get() / jobs,
          (double) master.tokensRead.get() / jobs,
          retries,
          emptyClaims.get(),
          (firstDone.get() - t0) / 1e9,
          (lastClaimed.get() - t0) / 1e9,
          load.substring(0, nthSpace(load, 3)),
          loadAfter.substring(0, nthSpace(loadAfter, 3)));
      assertThat(ended.get()).isEqualTo(InstanceStatus.SUCCESS);
      assertThat(ran).isEqualTo(jobs);
    }
  }

  private static int nthSpace(String s, int n) {
    int at = -1;
    for (int i = 0; i < n; i++) {
      at = s.indexOf(' ', at + 1);
    }
    return at;
  }
}
