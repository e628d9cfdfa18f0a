package dev.flipper.bench;

import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.ThriftJobQueue;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.redis.RedisShardConfig;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.worker.QueueWorker;
import dev.flipper.queue.worker.WorkerStats;
import dev.flipper.tls.TlsFolder;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import redis.clients.jedis.Jedis;

/**
 * Drains a pre-filled queue with a {@link QueueWorker} (no-op handler) through a queue server in
 * this process, over Thrift on loopback, on Redis or MariaDB/MySQL: the worker's throughput at a
 * given number of jobs in flight. Not a test.
 */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Benchmarks a QueueWorker draining pre-filled jobs.",
      "The worker (no-op handler, or one that sleeps --job-millis) drains the jobs through a queue server in this "
          + "process over Thrift on loopback: jobs/s, dequeue calls per 100 jobs and this process's CPU per job "
          + "(server, worker and store client together), per round and the median.",
      "WRITES DATA, only to its own Redis key prefix or database (created, and deleted at the end)."
    })
public final class WorkerBenchmark implements Callable<Integer> {
  private static final String QUEUE = "bench_q";

  @Spec CommandSpec spec;

  @Option(
      names = "--store",
      defaultValue = "redis",
      description = "redis or jdbc. Default: ${DEFAULT-VALUE}")
  String store;

  @Option(
      names = "--url",
      defaultValue = "jdbc:mysql://127.0.0.1:3306/",
      paramLabel = "URL",
      description =
          "For --store jdbc: as for `bench jdbc` (a new database, dropped at the end). Default: ${DEFAULT-VALUE}")
  String url;

  @Option(
      names = "--user",
      defaultValue = "root",
      description = "Database user. Default: ${DEFAULT-VALUE}")
  String user;

  @Option(names = "--password", defaultValue = "", description = "Database password. Default: none")
  String password;

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
      names = "--jobs",
      defaultValue = "30000",
      description = "Jobs drained per round. Default: ${DEFAULT-VALUE}")
  int jobs;

  @Option(
      names = "--rounds",
      defaultValue = "3",
      description = "Measured rounds, after one warm-up. Default: ${DEFAULT-VALUE}")
  int rounds;

  @Option(
      names = "--concurrency",
      defaultValue = "16",
      description = "The worker's concurrency (jobs in flight). Default: ${DEFAULT-VALUE}")
  int concurrency;

  @Option(
      names = "--batch",
      defaultValue = "10",
      description = "The worker's batch size. Default: ${DEFAULT-VALUE}")
  int batch;

  @Option(
      names = "--prefetch",
      description = "The worker's prefetch. Default: the worker's default")
  Integer prefetch;

  @Option(
      names = "--dequeues-in-flight",
      description = "The worker's dequeuesInFlight. Default: the worker's default")
  Integer dequeuesInFlight;

  @Option(
      names = "--job-millis",
      defaultValue = "0",
      paramLabel = "MILLIS",
      description =
          "Each job sleeps this long (a job waiting on I/O); 0: a no-op. Default: ${DEFAULT-VALUE}")
  int jobMillis;

  @Option(
      names = "--body-bytes",
      defaultValue = "200",
      description = "Size of each job body. Default: ${DEFAULT-VALUE}")
  int bodyBytes;

  @Option(
      names = "--tls",
      description =
          "Server and worker speak mutual TLS (certificates of a new authority in a temporary"
              + " folder), to compare with plain Thrift.")
  boolean tls;

  @Override
  public Integer call() throws Exception {
    if (!store.equals("redis") && !store.equals("jdbc")) {
      throw new ParameterException(
          spec.commandLine(), "--store must be redis or jdbc, was '" + store + "'");
    }
    if (jobs < 1 || rounds < 1 || concurrency < 1 || batch < 1 || bodyBytes < 0 || jobMillis < 0) {
      throw new ParameterException(
          spec.commandLine(),
          "--jobs, --rounds, --concurrency and --batch must be at least 1, "
              + "--body-bytes and --job-millis at least 0");
    }
    PrintWriter out = spec.commandLine().getOut();
    if (store.equals("redis")) {
      String prefix = BenchDatabase.uniqueName() + ":";
      try (RedisQueueStore redis =
          RedisQueueStore.builder()
              .shards(List.of(new RedisShardConfig("1", host, port, 0, "", false)))
              .keyPrefix(prefix)
              .build()) {
        run(out, redis, "Redis " + host + ":" + port + ", key prefix " + prefix);
      } finally {
        try (Jedis jedis = new Jedis(host, port)) {
          out.printf(
              Locale.ROOT,
              "deleted %,d keys under %s%n",
              RedisQueueBenchmark.deleteKeys(jedis, prefix),
              prefix);
        }
      }
    } else {
      try (BenchDatabase database = BenchDatabase.create(spec, url, user, password);
          JdbcQueueStore jdbc =
              JdbcQueueStore.builder()
                  .shards(List.of(new JdbcShardConfig("1", database.url(), user, password, false)))
                  .build()) {
        run(out, jdbc, database.describe());
      }
    }
    out.flush();
    return 0;
  }

  private void run(PrintWriter out, QueueStore queueStore, String where) throws Exception {
    QueueService service = QueueService.builder(queueStore).serverId("bench").build();
    service.createQueue(QUEUE);
    byte[] body = new byte[bodyBytes];
    Arrays.fill(body, (byte) 'x');
    out.printf(
        Locale.ROOT,
        "Flipper worker drain: %s; %,d jobs per round, concurrency %d, batch %d, prefetch %s, "
            + "dequeues in flight %s, jobs of %d ms, %d-byte bodies%s; load average %s%n",
        where,
        jobs,
        concurrency,
        batch,
        prefetch == null ? "default" : prefetch,
        dequeuesInFlight == null ? "default" : dequeuesInFlight,
        jobMillis,
        bodyBytes,
        tls ? ", mutual TLS" : "",
        loadAverage());
    out.flush();
    TlsFolder certificates = tls ? temporaryCertificates() : null;
    QueueServer server =
        QueueServer.builder(service)
            .bindHost("127.0.0.1")
            .port(0)
            .tls(tls ? certificates.identity("queue") : null)
            .build()
            .start();
    try (ThriftJobQueue remote =
        ThriftJobQueue.over(
            QueueClient.builder()
                .server("127.0.0.1", server.port())
                .source("bench-worker")
                .tls(tls ? certificates.identity("workers") : null)
                .build())) {
      List<Double> rates = new ArrayList<>();
      for (int round = 0; round <= rounds; round++) {
        fill(service, body);
        long cpuBefore = processCpuNanos();
        long began = System.nanoTime();
        WorkerStats stats = drain(remote);
        double seconds = (System.nanoTime() - began) / 1e9;
        double cpuMicrosPerJob = (processCpuNanos() - cpuBefore) / 1e3 / jobs;
        double rate = jobs / seconds;
        out.printf(
            Locale.ROOT,
            "%-8s %9.0f jobs/s  %5.1f dequeue calls/100 jobs  %6.1f us CPU/job  load %s%n",
            round == 0 ? "warm-up" : "round " + round,
            rate,
            100.0 * stats.dequeueCalls() / jobs,
            cpuMicrosPerJob,
            loadAverage());
        out.flush();
        if (round > 0) {
          rates.add(rate);
        }
      }
      rates.sort(null);
      out.printf(
          Locale.ROOT,
          "median %.0f jobs/s (min %.0f, max %.0f)%n",
          rates.get(rates.size() / 2),
          rates.get(0),
          rates.get(rates.size() - 1));
    } finally {
      server.close();
    }
  }

  private void fill(QueueService service, byte[] body) {
    List<NewJob> chunk = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      chunk.add(NewJob.of(body));
      if (chunk.size() == 100 || i == jobs - 1) {
        service.enqueue(QUEUE, chunk);
        chunk = new ArrayList<>();
      }
    }
  }

  /** Runs a worker until it has run and acked every job; returns its counters. */
  private WorkerStats drain(ThriftJobQueue remote) throws InterruptedException {
    QueueWorker.Builder builder =
        QueueWorker.builder(
                remote,
                QUEUE,
                job -> {
                  if (jobMillis > 0) {
                    Thread.sleep(jobMillis);
                  }
                })
            .source("bench-worker")
            .concurrency(concurrency)
            .batchSize(batch);
    if (prefetch != null) {
      builder.prefetch(prefetch);
    }
    if (dequeuesInFlight != null) {
      builder.dequeuesInFlight(dequeuesInFlight);
    }
    QueueWorker worker = builder.build().start();
    try {
      while (worker.stats().jobsSucceeded() < jobs || worker.stats().pendingAcks() > 0) {
        Thread.sleep(
            5); // a benchmark polls its own progress; the figure is the rate, not this wait
      }
      return worker.stats();
    } finally {
      worker.close();
    }
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean sun
        ? sun.getProcessCpuTime()
        : 0;
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (Exception e) {
      return "unknown";
    }
  }

  /** A new authority and the standard certificates, in a folder deleted when the JVM exits. */
  private static TlsFolder temporaryCertificates() throws Exception {
    Path dir = Files.createTempDirectory("flipper-bench-tls");
    TlsFolder folder = TlsFolder.init(dir, List.of(), Clock.systemUTC());
    try (var files = Files.list(dir)) {
      files.forEach(file -> file.toFile().deleteOnExit());
    }
    dir.toFile().deleteOnExit();
    return folder;
  }
}
