package dev.flipper.bench;

import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench faults}: jobs enqueued and processed while the queue server is SIGKILLed and
 * restarted, worker processes are SIGKILLed and replaced, and the store is restarted; then every
 * job is looked up in the workers' records: lost, run again, run after a confirmed ack, and the
 * recovery time of each fault. Runs its own MariaDB and Redis on spare loopback ports with data in
 * a temporary folder, never a shared instance; the queue server and the workers are JVMs on this
 * distribution's classpath. Exit code 0 when no job was lost, 1 otherwise.
 */
@Command(
    name = "faults",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Processes jobs through killed servers, killed workers and a restarted store.",
      "The queue server and the workers are SIGKILLed and the store is restarted while jobs run; it counts lost "
          + "and duplicate runs and the recovery time of each fault.",
      "Starts its own MariaDB (mariadb-install-db, mariadbd) and Redis (redis-server, AOF everysec) on spare "
          + "ports under a temporary folder, deleted at the end; never touches a shared instance."
    })
public final class FaultBenchmark implements Callable<Integer> {
  private static final String QUEUE = "faults";
  private static final int ENQUEUE_BATCH = 100;

  @Spec CommandSpec spec;

  @Option(
      names = "--store",
      defaultValue = "both",
      description = "mariadb, redis or both. Default: ${DEFAULT-VALUE}")
  String store;

  @Option(
      names = "--jobs",
      defaultValue = "100000",
      description = "Jobs to process. Default: ${DEFAULT-VALUE}")
  int jobs;

  @Option(
      names = "--server-kills",
      defaultValue = "5",
      description = "Queue server SIGKILLs. Default: ${DEFAULT-VALUE}")
  int serverKills;

  @Option(
      names = "--worker-kills",
      defaultValue = "10",
      description = "Worker SIGKILLs. Default: ${DEFAULT-VALUE}")
  int workerKills;

  @Option(
      names = "--store-restarts",
      defaultValue = "1",
      description = "Store restarts. Default: ${DEFAULT-VALUE}")
  int storeRestarts;

  @Option(
      names = "--workers",
      defaultValue = "3",
      description = "Worker processes. Default: ${DEFAULT-VALUE}")
  int workers;

  @Option(
      names = "--batch",
      defaultValue = "50",
      description = "Jobs per worker dequeue. Default: ${DEFAULT-VALUE}")
  int batch;

  @Option(
      names = "--timeout",
      defaultValue = "30m",
      paramLabel = "DURATION",
      description = "Longest run per store (ISO-8601 or 30m, 90s). Default: ${DEFAULT-VALUE}")
  String timeout;

  @Option(names = "--keep", description = "Keep the temporary folder (store data, logs, records).")
  boolean keep;

  @Override
  public Integer call() throws Exception {
    List<String> stores =
        switch (store) {
          case "both" -> List.of("mariadb", "redis");
          case "mariadb", "redis" -> List.of(store);
          default ->
              throw new ParameterException(
                  spec.commandLine(),
                  "--store: '" + store + "' is not one of mariadb, redis, both");
        };
    if (jobs < 1
        || workers < 1
        || batch < 1
        || serverKills < 0
        || workerKills < 0
        || storeRestarts < 0) {
      throw new ParameterException(
          spec.commandLine(),
          "--jobs, --workers and --batch must be at least 1; kill and restart counts at least 0");
    }
    Duration limit = parseDuration(timeout);
    PrintWriter out = spec.commandLine().getOut();
    List<FaultRun.Result> results = new ArrayList<>();
    for (String name : stores) {
      Path dir = Files.createTempDirectory("flipper-faults-" + name + "-");
      try (LocalStore local =
          name.equals("redis")
              ? new LocalStore.Redis(dir.resolve("store"))
              : new LocalStore.MariaDb(dir.resolve("store"))) {
        FaultRun run = new FaultRun(local, dir, classpath(), out);
        results.add(run.run(jobs, workers, batch, serverKills, workerKills, storeRestarts, limit));
      } finally {
        if (keep) {
          out.println("faults: kept " + dir);
        } else {
          deleteTree(dir);
        }
      }
    }
    FaultReport.print(
        out, results, jobs, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    out.flush();
    return results.stream().allMatch(r -> r.lost() == 0 && !r.timedOut()) ? 0 : 1;
  }

  private Duration parseDuration(String text) {
    try {
      if (text.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
      }
      if (text.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
      }
      return Duration.parse(text);
    } catch (RuntimeException e) {
      throw new ParameterException(
          spec.commandLine(), "--timeout: '" + text + "' is not a duration like 90s or 30m");
    }
  }

  /** The classpath of this JVM: the distribution's lib/* (expanded by java), or a test's. */
  static String classpath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  static void awaitTrue(String what, Duration limit, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "faults: timed out after " + limit + " waiting for " + what);
      }
      Thread.sleep(10);
    }
  }

  static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }

  static NewJob job(int number) {
    return NewJob.of(Integer.toString(number)).withAttemptsAllowed(1000);
  }

  static void produce(QueueClient client, int jobs, AtomicBoolean stop) {
    for (int from = 0; from < jobs && !stop.get(); from += ENQUEUE_BATCH) {
      List<NewJob> batch = new ArrayList<>();
      for (int n = from; n < Math.min(jobs, from + ENQUEUE_BATCH); n++) {
        batch.add(job(n));
      }
      while (!stop.get()) {
        try {
          client.enqueue(QUEUE, batch);
          break;
        } catch (RuntimeException e) {
          try {
            Thread.sleep(
                50); // server or store down: retry (a lost reply may enqueue the batch twice)
          } catch (InterruptedException interrupted) {
            return;
          }
        }
      }
    }
  }

  static String queue() {
    return QUEUE;
  }
}
