package dev.flipper.bench;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.redis.RedisShardConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * {@code flipper bench redis}: throughput of the full job cycle on Redis through {@link
 * QueueService}: each thread enqueues a batch, dequeues a batch and acks it as succeeded, in a
 * loop. Then, for comparison, {@code redis-benchmark} figures for single commands against the same
 * server, on key names under the same prefix. Not a test.
 *
 * <p>It WRITES to the Redis database it is pointed at, only keys under its key prefix (unique by
 * default; a prefix that has keys already is refused), and deletes every key under that prefix at
 * the end (SCAN + DEL). Not thread-safe; one run per instance.
 */
@Command(
    name = "redis",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Benchmarks the queue's enqueue, dequeue and ack cycle on Redis, then redis-benchmark.",
      "The full enqueue->dequeue->ack cycle through QueueService, then redis-benchmark figures for single "
          + "commands against the same server.",
      "WRITES DATA, only keys under its key prefix in the chosen database (a prefix that has keys is "
          + "refused), and deletes them at the end."
    })
public final class RedisQueueBenchmark implements Callable<Integer> {
  private static final String QUEUE = "bench";

  @Spec CommandSpec spec;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "Redis host. Default: ${DEFAULT-VALUE}")
  String host;

  @Option(
      names = "--port",
      defaultValue = "6379",
      description = "Redis port. Default: ${DEFAULT-VALUE}")
  int port;

  @Option(
      names = "--db",
      defaultValue = "0",
      paramLabel = "INDEX",
      description = "Redis database index the benchmark writes to. Default: ${DEFAULT-VALUE}")
  int db;

  @Option(
      names = "--key-prefix",
      paramLabel = "PREFIX",
      description =
          "Prefix of every key written; must have no keys yet. Default: a unique "
              + BenchDatabase.NAME_PREFIX
              + "...:")
  String keyPrefix;

  @Option(
      names = "--threads",
      defaultValue = "4",
      description = "Client threads. Default: ${DEFAULT-VALUE}")
  int threads;

  @Option(
      names = "--batch",
      defaultValue = "100",
      description = "Jobs per enqueue, dequeue and ack. Default: ${DEFAULT-VALUE}")
  int batch;

  @Option(
      names = "--seconds",
      defaultValue = "20",
      description = "Length of the measured run. Default: ${DEFAULT-VALUE}")
  int seconds;

  @Option(
      names = "--warmup",
      defaultValue = "5",
      paramLabel = "SECONDS",
      description = "Untimed run before it; 0 skips it. Default: ${DEFAULT-VALUE}")
  int warmup;

  @Option(
      names = "--body-bytes",
      defaultValue = "64",
      description = "Size of each job body. Default: ${DEFAULT-VALUE}")
  int bodyBytes;

  @Option(
      names = "--shards",
      defaultValue = "1",
      description =
          "Shards, all on the same database (the shard name is part of every key). Default: ${DEFAULT-VALUE}")
  int shards;

  @Option(
      names = "--redis-benchmark-requests",
      defaultValue = "100000",
      paramLabel = "N",
      description = "Requests per redis-benchmark command (its -n). Default: ${DEFAULT-VALUE}")
  int redisBenchmarkRequests;

  @Option(names = "--skip-redis-benchmark", description = "Do not run redis-benchmark.")
  boolean skipRedisBenchmark;

  private PrintWriter out;

  @Override
  public Integer call() throws Exception {
    validate();
    out = spec.commandLine().getOut();
    String prefix = keyPrefix != null ? keyPrefix : BenchDatabase.uniqueName() + ":";
    try (Jedis jedis = jedis()) {
      if (countKeys(jedis, prefix) > 0) {
        throw new ParameterException(
            spec.commandLine(),
            "Redis "
                + host
                + ":"
                + port
                + "/"
                + db
                + " has keys under '"
                + prefix
                + "'; the benchmark deletes every key under its prefix at the end: choose a new --key-prefix");
      }
    }
    try {
      runQueue(prefix);
      if (!skipRedisBenchmark) {
        runRedisBenchmark(prefix);
      }
    } finally {
      out.printf(Locale.ROOT, "deleted %,d benchmark keys under %s%n", deleteKeys(prefix), prefix);
      out.flush();
    }
    return 0;
  }

  private void validate() {
    atLeast("--threads", threads, 1);
    atLeast("--batch", batch, 1);
    atLeast("--seconds", seconds, 1);
    atLeast("--warmup", warmup, 0);
    atLeast("--body-bytes", bodyBytes, 0);
    atLeast("--shards", shards, 1);
    atLeast("--db", db, 0);
    atLeast("--redis-benchmark-requests", redisBenchmarkRequests, 1);
    if (keyPrefix != null
        && (keyPrefix.isEmpty() || keyPrefix.contains("{") || keyPrefix.contains("}"))) {
      throw new ParameterException(
          spec.commandLine(),
          "--key-prefix must not be empty nor contain '{' or '}' (hash tags), was '"
              + keyPrefix
              + "'");
    }
  }

  private void atLeast(String option, int value, int minimum) {
    if (value < minimum) {
      throw new ParameterException(
          spec.commandLine(), option + " must be at least " + minimum + ", was " + value);
    }
  }

  private Jedis jedis() {
    Jedis jedis = new Jedis(host, port);
    jedis.select(db);
    return jedis;
  }

  private void runQueue(String prefix) throws Exception {
    out.printf(
        Locale.ROOT,
        "Flipper Redis benchmark: %s:%d/%d, %d threads, batch %d, %d-byte bodies, %d shard(s), "
            + "%d s warm-up + %d s measured, key prefix %s (deleted at the end)%n",
        host,
        port,
        db,
        threads,
        batch,
        bodyBytes,
        shards,
        warmup,
        seconds,
        prefix);
    out.printf(
        Locale.ROOT,
        "Java %s, %d cores%n",
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors());
    out.flush();
    List<RedisShardConfig> configs = new ArrayList<>();
    for (int i = 1; i <= shards; i++) {
      configs.add(new RedisShardConfig(Integer.toString(i), host, port, db, "", false));
    }
    try (RedisQueueStore store =
        RedisQueueStore.builder()
            .shards(configs)
            .keyPrefix(prefix)
            .poolSize(Math.max(16, threads * 2))
            .build()) {
      QueueService service = QueueService.builder(store).serverId("bench").build();
      service.createQueue(QUEUE);
      if (warmup > 0) {
        runCycles(service, warmup, "warm-up");
      }
      double[] before = redisCpuSeconds();
      long clientCpuBefore = clientCpuNanos();
      long[] machineBefore = machineTicks();
      Result result = runCycles(service, seconds, "measured");
      long[] machineAfter = machineTicks();
      double clientCpu = (clientCpuNanos() - clientCpuBefore) / 1e9;
      double[] after = redisCpuSeconds();
      double redisCpu = (after[0] - before[0]) + (after[1] - before[1]);
      double machineBusy =
          machineBefore == null || machineAfter == null
              ? Double.NaN
              : 1.0
                  - (double) (machineAfter[1] - machineBefore[1])
                      / (machineAfter[0] - machineBefore[0]);
      out.printf(
          Locale.ROOT,
          "%nRESULT: %,.0f jobs/s (enqueue + dequeue + ack per job; %,d jobs in %.1f s)%n",
          result.jobs / result.seconds,
          result.jobs,
          result.seconds);
      out.printf(
          Locale.ROOT,
          "  mean latency per batch call: enqueue %s ms, dequeue %s ms, ack %s ms%n",
          Cells.of("%.2f", result.enqueueNanos / 1e6 / result.cycles),
          Cells.of("%.2f", result.dequeueNanos / 1e6 / result.cycles),
          Cells.of("%.2f", result.ackNanos / 1e6 / result.cycles));
      out.printf(
          Locale.ROOT,
          "  Redis server CPU: %.2f s in %.1f s (%.0f%% of one core), %s µs per job%n",
          redisCpu,
          result.seconds,
          100 * redisCpu / result.seconds,
          Cells.of("%.1f", redisCpu * 1e6 / result.jobs));
      out.printf(
          Locale.ROOT,
          "  benchmark JVM CPU: %.2f s (%.0f%% of one core), %s µs per job%n",
          clientCpu,
          100 * clientCpu / result.seconds,
          Cells.of("%.1f", clientCpu * 1e6 / result.jobs));
      out.printf(
          Locale.ROOT,
          "  whole machine busy: %s%% of %d cores (other processes included)%n",
          Cells.of("%.0f", 100 * machineBusy),
          Runtime.getRuntime().availableProcessors());
      out.flush();
    }
  }

  /**
   * redis-benchmark's own tests (-t set,lpush,...) write fixed key names (key:__rand_int__, mylist,
   * ...) that may be someone's data, so it runs as custom commands on key names under the prefix
   * instead, in the same database. Without -r, __rand_int__ stays literal, as in those tests.
   */
  private void runRedisBenchmark(String prefix) throws IOException, InterruptedException {
    List<String> base =
        List.of(
            "redis-benchmark",
            "-h",
            host,
            "-p",
            Integer.toString(port),
            "--dbnum",
            Integer.toString(db),
            "-q",
            "-n",
            Integer.toString(redisBenchmarkRequests));
    List<List<String>> commands =
        List.of(
            List.of("SET", prefix + "rb:key:__rand_int__", "xxx"),
            List.of("LPUSH", prefix + "rb:list", "xxx"),
            List.of("ZADD", prefix + "rb:zset", "0", "element:__rand_int__"),
            List.of("HSET", prefix + "rb:hash", "element:__rand_int__", "xxx"));
    for (List<String> command : commands) {
      if (!redisBenchmark(concat(base, command))) {
        return;
      }
    }
    for (List<String> command :
        commands.subList(2, 4)) { // pipelined: the batched writes a script does
      redisBenchmark(concat(concat(base, List.of("-P", "100")), command));
    }
    redisBenchmark(concat(base, List.of("EVAL", "return 1", "0")));
  }

  private record Result(
      long jobs,
      long cycles,
      double seconds,
      long enqueueNanos,
      long dequeueNanos,
      long ackNanos) {}

  private Result runCycles(QueueService service, int durationSeconds, String phase)
      throws InterruptedException {
    LongAdder jobs = new LongAdder();
    LongAdder cycles = new LongAdder();
    LongAdder enqueueNanos = new LongAdder();
    LongAdder dequeueNanos = new LongAdder();
    LongAdder ackNanos = new LongAdder();
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(threads);
    byte[] body = new byte[bodyBytes];
    java.util.Arrays.fill(body, (byte) 'x');
    List<NewJob> newJobs = new ArrayList<>(batch);
    for (int i = 0; i < batch; i++) {
      newJobs.add(NewJob.of(body));
    }
    List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      String source = "bench-" + t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    long t0 = System.nanoTime();
                    service.enqueue(QUEUE, newJobs);
                    long t1 = System.nanoTime();
                    List<DequeuedJob> claimed =
                        service.dequeue(DequeueParams.of(QUEUE, batch, source));
                    long t2 = System.nanoTime();
                    List<AckParams.Item> acks = new ArrayList<>(claimed.size());
                    for (DequeuedJob job : claimed) {
                      acks.add(AckParams.Item.of(job.descriptor()));
                    }
                    service.ack(new AckParams(QUEUE, acks, List.of()));
                    long t3 = System.nanoTime();
                    jobs.add(claimed.size());
                    cycles.increment();
                    enqueueNanos.add(t1 - t0);
                    dequeueNanos.add(t2 - t1);
                    ackNanos.add(t3 - t2);
                  }
                } catch (Throwable e) {
                  errors.add(e);
                } finally {
                  done.countDown();
                }
              },
              "bench-" + t);
      thread.start();
    }
    Thread.sleep(Duration.ofSeconds(durationSeconds).toMillis());
    stop.set(true);
    done.await();
    double elapsed = (System.nanoTime() - start) / 1e9;
    if (!errors.isEmpty()) {
      throw new IllegalStateException("a benchmark thread failed", errors.get(0));
    }
    out.printf(Locale.ROOT, "%s: %,.0f jobs/s%n", phase, jobs.sum() / elapsed);
    out.flush();
    return new Result(
        jobs.sum(), cycles.sum(), elapsed, enqueueNanos.sum(), dequeueNanos.sum(), ackNanos.sum());
  }

  private static long clientCpuNanos() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
  }

  /** Total and idle (idle + iowait) jiffies of all cores from /proc/stat, or null off Linux. */
  private static long[] machineTicks() {
    try {
      String[] cpu =
          java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat"))
              .get(0)
              .trim()
              .split("\\s+");
      long total = 0;
      for (int i = 1; i < cpu.length; i++) {
        total += Long.parseLong(cpu[i]);
      }
      return new long[] {total, Long.parseLong(cpu[4]) + Long.parseLong(cpu[5])};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** used_cpu_user and used_cpu_sys of the Redis server, in seconds. */
  private double[] redisCpuSeconds() {
    try (Jedis jedis = jedis()) {
      double user = 0;
      double sys = 0;
      for (String line : jedis.info("cpu").split("\r?\n")) {
        if (line.startsWith("used_cpu_user:")) {
          user = Double.parseDouble(line.substring("used_cpu_user:".length()));
        } else if (line.startsWith("used_cpu_sys:")) {
          sys = Double.parseDouble(line.substring("used_cpu_sys:".length()));
        }
      }
      return new double[] {user, sys};
    }
  }

  /** The SCAN pattern matching exactly the keys that start with the prefix. */
  private static String pattern(String prefix) {
    return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + "*";
  }

  static long countKeys(Jedis jedis, String prefix) {
    ScanParams params = new ScanParams().match(pattern(prefix)).count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    long count = 0;
    do {
      ScanResult<String> page = jedis.scan(cursor, params);
      count += page.getResult().size();
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return count;
  }

  /** Deletes every key under the prefix in the benchmark's database; returns how many. */
  private long deleteKeys(String prefix) {
    try (Jedis jedis = jedis()) {
      return deleteKeys(jedis, prefix);
    }
  }

  /** Deletes every key under the prefix in the Jedis connection's database; returns how many. */
  static long deleteKeys(Jedis jedis, String prefix) {
    ScanParams params = new ScanParams().match(pattern(prefix)).count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    long deleted = 0;
    do {
      ScanResult<String> page = jedis.scan(cursor, params);
      if (!page.getResult().isEmpty()) {
        deleted += jedis.del(page.getResult().toArray(String[]::new));
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return deleted;
  }

  private static List<String> concat(List<String> base, List<String> more) {
    List<String> all = new ArrayList<>(base);
    all.addAll(more);
    return all;
  }

  /**
   * Runs one redis-benchmark command and prints its figures; false if redis-benchmark is not
   * installed.
   */
  private boolean redisBenchmark(List<String> command) throws IOException, InterruptedException {
    out.println();
    out.println(
        "$ "
            + String.join(
                " ", command.stream().map(a -> a.contains(" ") ? "'" + a + "'" : a).toList()));
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      out.println(
          "redis-benchmark not run ("
              + e.getMessage()
              + "); install it or use --skip-redis-benchmark");
      return false;
    }
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        // redis-benchmark -q redraws a progress line ("... rps=...") before each final figure.
        for (String part : line.split("\r")) {
          if (!part.isBlank() && !part.contains("rps=")) {
            out.println(part.trim());
          }
        }
      }
    }
    out.flush();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("redis-benchmark exited with " + process.exitValue());
    }
    return true;
  }
}
