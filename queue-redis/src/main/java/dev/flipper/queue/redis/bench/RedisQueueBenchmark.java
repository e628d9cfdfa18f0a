package dev.flipper.queue.redis.bench;

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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Throughput of the full job cycle on Redis through {@link QueueService}: each thread enqueues a batch,
 * dequeues a batch and acks it as succeeded, in a loop. Then, for comparison, {@code redis-benchmark}
 * figures for single commands against the same server. Not a test.
 *
 * <p>WARNING: writes jobs to the Redis it is pointed at, under a random key prefix that it deletes at the
 * end (SCAN + DEL; nothing else is touched).
 *
 * <pre>
 * flipper bench redis --threads 4 --seconds 20 --batch 100
 * </pre>
 *
 * Options: --host (127.0.0.1), --port (6379), --threads (4), --batch (100), --seconds (20), --warmup (5),
 * --body-bytes (64), --shards (1: shard names on the same database), --skip-redis-benchmark.
 */
public final class RedisQueueBenchmark {
  private static final String QUEUE = "bench";
  /** The database redis-benchmark writes its own keys to. */
  private static final int REDIS_BENCHMARK_DB = 9;

  private final Map<String, String> options;
  private final String host;
  private final int port;
  private final int threads;
  private final int batch;
  private final int seconds;
  private final int warmup;
  private final int bodyBytes;
  private final int shards;

  private RedisQueueBenchmark(Map<String, String> options) {
    this.options = options;
    this.host = options.getOrDefault("host", "127.0.0.1");
    this.port = Integer.parseInt(options.getOrDefault("port", "6379"));
    this.threads = Integer.parseInt(options.getOrDefault("threads", "4"));
    this.batch = Integer.parseInt(options.getOrDefault("batch", "100"));
    this.seconds = Integer.parseInt(options.getOrDefault("seconds", "20"));
    this.warmup = Integer.parseInt(options.getOrDefault("warmup", "5"));
    this.bodyBytes = Integer.parseInt(options.getOrDefault("body-bytes", "64"));
    this.shards = Integer.parseInt(options.getOrDefault("shards", "1"));
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + args[i] + "'; options look like --threads 4");
      }
      String name = args[i].substring(2);
      boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
      options.put(name, flag ? "true" : args[++i]);
    }
    new RedisQueueBenchmark(options).run();
  }

  private void run() throws Exception {
    String prefix = "flipper_bench_" + UUID.randomUUID().toString().substring(0, 8) + ":";
    System.out.printf("Flipper Redis benchmark: %s:%d, %d threads, batch %d, %d-byte bodies, %d shard(s), "
        + "%d s warm-up + %d s measured, key prefix %s (deleted at the end)%n", host, port, threads, batch,
        bodyBytes, shards, warmup, seconds, prefix);
    System.out.printf("Java %s, %d cores%n", System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors());
    List<RedisShardConfig> configs = new ArrayList<>();
    for (int i = 1; i <= shards; i++) {
      configs.add(RedisShardConfig.of(Integer.toString(i), host, port));
    }
    try (RedisQueueStore store = RedisQueueStore.builder()
        .shards(configs)
        .keyPrefix(prefix)
        .poolSize(Math.max(16, threads * 2))
        .build()) {
      QueueService service = QueueService.builder(store).serverId("bench").build();
      service.createQueue(QUEUE);
      runCycles(service, warmup, "warm-up");
      double[] before = redisCpuSeconds();
      long clientCpuBefore = clientCpuNanos();
      long[] machineBefore = machineTicks();
      Result result = runCycles(service, seconds, "measured");
      long[] machineAfter = machineTicks();
      double clientCpu = (clientCpuNanos() - clientCpuBefore) / 1e9;
      double[] after = redisCpuSeconds();
      double redisCpu = (after[0] - before[0]) + (after[1] - before[1]);
      double machineBusy = machineBefore == null ? Double.NaN
          : 1.0 - (double) (machineAfter[1] - machineBefore[1]) / (machineAfter[0] - machineBefore[0]);
      System.out.printf("%nRESULT: %,.0f jobs/s (enqueue + dequeue + ack per job; %,d jobs in %.1f s)%n",
          result.jobs / result.seconds, result.jobs, result.seconds);
      System.out.printf("  mean latency per batch call: enqueue %.2f ms, dequeue %.2f ms, ack %.2f ms%n",
          result.enqueueNanos / 1e6 / result.cycles, result.dequeueNanos / 1e6 / result.cycles,
          result.ackNanos / 1e6 / result.cycles);
      System.out.printf("  Redis server CPU: %.2f s in %.1f s (%.0f%% of one core), %.1f µs per job%n", redisCpu,
          result.seconds, 100 * redisCpu / result.seconds, redisCpu * 1e6 / result.jobs);
      System.out.printf("  benchmark JVM CPU: %.2f s (%.0f%% of one core), %.1f µs per job%n", clientCpu,
          100 * clientCpu / result.seconds, clientCpu * 1e6 / result.jobs);
      System.out.printf("  whole machine busy: %.0f%% of %d cores (other processes included)%n", 100 * machineBusy,
          Runtime.getRuntime().availableProcessors());
    } finally {
      deleteKeys(prefix);
    }
    if (!options.containsKey("skip-redis-benchmark")) {
      // redis-benchmark writes fixed key names (key:__rand_int__, myzset, ...): keep them in their own
      // database and delete exactly those afterwards.
      List<String> base = List.of("redis-benchmark", "-h", host, "-p", Integer.toString(port),
          "--dbnum", Integer.toString(REDIS_BENCHMARK_DB), "-q", "-n", "100000");
      redisBenchmark(concat(base, "-t", "set,lpush,zadd,hset"));
      redisBenchmark(concat(base, "-P", "100", "-t", "zadd,hset"));
      redisBenchmark(concat(base, "EVAL", "return 1", "0"));
      try (Jedis jedis = new Jedis(host, port)) {
        jedis.select(REDIS_BENCHMARK_DB);
        jedis.del("key:__rand_int__", "counter:__rand_int__", "mylist", "myset", "myzset", "myhash");
      }
    }
  }

  private record Result(long jobs, long cycles, double seconds, long enqueueNanos, long dequeueNanos,
      long ackNanos) {}

  private Result runCycles(QueueService service, int durationSeconds, String phase) throws InterruptedException {
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
      Thread thread = new Thread(() -> {
        try {
          while (!stop.get()) {
            long t0 = System.nanoTime();
            service.enqueue(QUEUE, newJobs);
            long t1 = System.nanoTime();
            List<DequeuedJob> claimed = service.dequeue(DequeueParams.of(QUEUE, batch, source));
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
      }, "bench-" + t);
      thread.start();
    }
    Thread.sleep(Duration.ofSeconds(durationSeconds).toMillis());
    stop.set(true);
    done.await();
    double elapsed = (System.nanoTime() - start) / 1e9;
    if (!errors.isEmpty()) {
      throw new IllegalStateException("a benchmark thread failed", errors.get(0));
    }
    System.out.printf("%s: %,.0f jobs/s%n", phase, jobs.sum() / elapsed);
    return new Result(jobs.sum(), cycles.sum(), elapsed, enqueueNanos.sum(), dequeueNanos.sum(), ackNanos.sum());
  }

  private static long clientCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
  }

  /** Total and idle (idle + iowait) jiffies of all cores from /proc/stat, or null off Linux. */
  private static long[] machineTicks() {
    try {
      String[] cpu = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim().split("\\s+");
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
    try (Jedis jedis = new Jedis(host, port)) {
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

  private void deleteKeys(String prefix) {
    try (Jedis jedis = new Jedis(host, port)) {
      ScanParams params = new ScanParams().match(prefix + "*").count(1000);
      String cursor = ScanParams.SCAN_POINTER_START;
      long deleted = 0;
      do {
        ScanResult<String> page = jedis.scan(cursor, params);
        if (!page.getResult().isEmpty()) {
          deleted += jedis.del(page.getResult().toArray(String[]::new));
        }
        cursor = page.getCursor();
      } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
      System.out.printf("deleted %,d benchmark keys%n", deleted);
    }
  }

  private static List<String> concat(List<String> base, String... more) {
    List<String> all = new ArrayList<>(base);
    all.addAll(List.of(more));
    return all;
  }

  private static void redisBenchmark(List<String> command) throws IOException, InterruptedException {
    System.out.println();
    System.out.println("$ " + String.join(" ", command.stream().map(a -> a.contains(" ") ? "'" + a + "'" : a).toList()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        // redis-benchmark -q redraws a progress line ("... rps=...") before each final figure.
        if (!line.isBlank() && !line.contains("rps=")) {
          System.out.println(line.trim());
        }
      }
    }
    process.waitFor();
  }
}
