package dev.flipper.bench;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench tokens}: the token master's write paths on a database: modify (one token
 * updated per call, no conflicts: each thread owns its tokens) and queryAndOwn (one token claimed
 * per call, burning down a pool of unowned tokens). Prints ops/s and latencies.
 *
 * <p>It WRITES DATA, only to a database it creates (see {@link BenchDatabase}; by default a new H2
 * file in the temporary folder) and deletes at the end. Not a test. Not thread-safe; one run per
 * instance.
 */
@Command(
    name = "tokens",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Benchmarks the token master's modify and queryAndOwn on a database.",
      "WRITES DATA, only to a database it creates (a new H2 file for jdbc:h2:) and drops at the end; a "
          + "database or file that exists is refused."
    })
public final class TokenBenchmark implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin NewDatabaseOptions db;

  @Option(
      names = "--threads",
      defaultValue = "16",
      description = "Client threads. Default: ${DEFAULT-VALUE}")
  int threads;

  @Option(
      names = "--seconds",
      defaultValue = "10",
      description = "Length of each phase. Default: ${DEFAULT-VALUE}")
  int seconds;

  @Option(
      names = "--claim-tokens",
      defaultValue = "50000",
      description =
          "Unowned tokens to burn down in the queryAndOwn phase. Default: ${DEFAULT-VALUE}")
  int claimTokens;

  @Option(
      names = "--thrift",
      description = "Go through a local Thrift server and client, as remote clients do.")
  boolean thrift;

  @Override
  public Integer call() throws Exception {
    atLeast("--threads", threads, 1);
    atLeast("--seconds", seconds, 1);
    atLeast("--claim-tokens", claimTokens, 0);
    PrintWriter out = spec.commandLine().getOut();
    String prefix = "/__bench__/" + UUID.randomUUID().toString().substring(0, 8) + "/";
    try (BenchDatabase database = db.create(spec)) {
      JdbcTokenStoreConfig config =
          new JdbcTokenStoreConfig(
              database.url(),
              db.user,
              db.password,
              Math.max(threads, 2),
              JdbcTokenStoreConfig.DEFAULT_CONNECT_TIMEOUT);
      out.printf(
          Locale.ROOT,
          "token benchmark: %s, %d threads, %d s per phase%s; writes under %s%n",
          database.describe(),
          threads,
          seconds,
          thrift ? ", through Thrift" : "",
          prefix);
      out.flush();
      try (JdbcTokenStore store = JdbcTokenStore.open(config)) {
        TokenService service = TokenService.builder(store).build();
        TokenMasterServer server =
            thrift
                ? TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start()
                : null;
        TokenMasterClient client =
            thrift
                ? TokenMasterClient.builder("127.0.0.1", server.port())
                    .maxIdleConnections(threads)
                    .build()
                : null;
        TokenMaster master = thrift ? client : service;
        try {
          out.println(modifyPhase(master, prefix + "modify/").format("modify (1 update per call)"));
          out.flush();
          out.println(
              claimPhase(master, prefix + "claim/").format("queryAndOwn (1 token per call)"));
        } finally {
          if (client != null) {
            client.close();
            server.close();
          }
        }
      }
    }
    out.flush();
    return 0;
  }

  private void atLeast(String option, int value, int minimum) {
    if (value < minimum) {
      throw new ParameterException(
          spec.commandLine(), option + " must be at least " + minimum + ", was " + value);
    }
  }

  private Result modifyPhase(TokenMaster master, String prefix) throws Exception {
    int perThread = 20;
    List<List<Token>> owned = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      List<Token> tokens = new ArrayList<>();
      for (int i = 0; i < perThread; i++) {
        tokens.add(Token.of(prefix + t + "/" + i, "0"));
      }
      owned.add(new ArrayList<>(master.modify(new ModifyParams(tokens, List.of()))));
    }
    return run(
        (thread, deadline, latencies) -> {
          List<Token> mine = owned.get(thread);
          int ops = 0;
          for (int i = 0; System.nanoTime() < deadline; i++) {
            int slot = i % mine.size();
            Token current = mine.get(slot);
            long start = System.nanoTime();
            Token written =
                master.modify(ModifyParams.updating(current.withData(Integer.toString(i)))).get(0);
            latencies.add(System.nanoTime() - start);
            mine.set(slot, written);
            ops++;
          }
          return ops;
        });
  }

  private Result claimPhase(TokenMaster master, String prefix) throws Exception {
    List<Token> batch = new ArrayList<>();
    for (int i = 0; i < claimTokens; i++) {
      batch.add(
          Token.of(prefix + String.format(Locale.ROOT, "%07d", i), "job " + i)
              .withPriority(i % 10));
      if (batch.size() == 500 || i == claimTokens - 1) {
        master.modify(new ModifyParams(batch, List.of()));
        batch.clear();
      }
    }
    long leaseEnd = System.currentTimeMillis() / 1000 + 3600;
    return run(
        (thread, deadline, latencies) -> {
          int ops = 0;
          while (System.nanoTime() < deadline) {
            long start = System.nanoTime();
            List<Token> claimed =
                master.queryAndOwn(
                    new QueryAndOwnParams("bench-" + thread, leaseEnd, Query.top(prefix, 1)));
            latencies.add(System.nanoTime() - start);
            if (claimed.isEmpty()) {
              break; // burnt down
            }
            ops++;
          }
          return ops;
        });
  }

  interface Worker {
    int run(int thread, long deadlineNanos, List<Long> latencies) throws Exception;
  }

  /** One phase: every thread runs until the deadline; ops/s over the wall time actually used. */
  private Result run(Worker worker) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
    List<Future<Integer>> futures = new ArrayList<>();
    List<List<Long>> latencies = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      List<Long> mine = new ArrayList<>();
      latencies.add(mine);
      futures.add(pool.submit(() -> worker.run(thread, deadline, mine)));
    }
    long ops = 0;
    for (Future<Integer> future : futures) {
      ops += future.get();
    }
    long elapsed = System.nanoTime() - start;
    pool.shutdown();
    long[] all =
        latencies.stream().flatMap(List::stream).mapToLong(Long::longValue).sorted().toArray();
    return new Result(ops, elapsed, all);
  }

  record Result(long ops, long elapsedNanos, long[] sortedLatencies) {
    String format(String phase) {
      double secs = elapsedNanos / 1e9;
      return String.format(
          Locale.ROOT,
          "%-32s %8.0f ops/s  (%d ops in %.1f s; latency p50 %s ms, p99 %s ms," + " max %s ms)",
          phase,
          ops / secs,
          ops,
          secs,
          Cells.of("%.2f", percentile(0.50)),
          Cells.of("%.2f", percentile(0.99)),
          Cells.of("%.2f", percentile(1.0)));
    }

    private double percentile(double p) {
      if (sortedLatencies.length == 0) {
        return Double.NaN;
      }
      int index =
          (int) Math.min(sortedLatencies.length - 1, Math.ceil(p * sortedLatencies.length) - 1);
      return sortedLatencies[Math.max(0, index)] / 1e6;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Result r
          && r.ops == ops
          && r.elapsedNanos == elapsedNanos
          && Arrays.equals(r.sortedLatencies, sortedLatencies);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(ops) * 31 + Arrays.hashCode(sortedLatencies);
    }

    @Override
    public String toString() {
      return format("result");
    }
  }
}
