package dev.flipper.bench;

import dev.flipper.queue.client.QueueClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One store's run of {@code flipper bench faults}: its store, queue server and workers as child
 * processes, a producer thread, and the faults fired at evenly spread points of progress, each
 * awaited until jobs run again. Not thread-safe; one run per instance.
 */
final class FaultRun {
  /** A fault and what it cost: the time from the fault to the first job run after the recovery. */
  record Fault(String kind, long atJobs, long recoveryMillis, int inFlightBound) {}

  record Result(
      String store,
      long millis,
      int lost,
      long runs,
      long reruns,
      long runsAfterAck,
      long doubleEnqueues,
      int duplicateBound,
      List<Fault> faults,
      boolean timedOut) {}

  private final LocalStore store;
  private final Path dir;
  private final String classpath;
  private final PrintWriter out;
  private final int serverPort;
  private final RunRecords records = new RunRecords();
  private final List<Process> workerProcesses = new ArrayList<>();
  private Process server;
  private int workerFiles;
  private int jobs;

  FaultRun(LocalStore store, Path dir, String classpath, PrintWriter out) throws IOException {
    this.store = store;
    this.dir = dir;
    this.classpath = classpath;
    this.out = out;
    this.serverPort = sparePortBut(store.port);
  }

  /**
   * A spare port other than the store's: both are picked by closing a socket bound to port 0, and a
   * server started on the store's port would fail while its clients talked to the store.
   */
  private static int sparePortBut(int taken) throws IOException {
    int port = LocalStore.sparePort();
    while (port == taken) {
      port = LocalStore.sparePort();
    }
    return port;
  }

  Result run(
      int jobs,
      int workers,
      int batch,
      int serverKills,
      int workerKills,
      int storeRestarts,
      Duration limit)
      throws Exception {
    this.jobs = jobs;
    store.init();
    store.start();
    Files.writeString(
        dir.resolve("queue.yaml"),
        store.storageYaml()
            + "queue:\n  port: "
            + serverPort
            + "\n  adminPort: 0\n  claimTimeout: 10s\n  monitorInterval: 1s\n"
            + "logging:\n  file: "
            + dir.resolve("queue-server.log")
            + "\n");
    startServer();
    AtomicBoolean stop = new AtomicBoolean();
    Thread producer = null;
    long started = System.currentTimeMillis();
    boolean timedOut = false;
    List<Fault> faults = new ArrayList<>();
    try (QueueClient client =
        QueueClient.builder()
            .server("127.0.0.1", serverPort)
            .source("fault-harness")
            .connectTimeout(Duration.ofSeconds(2))
            .requestTimeout(Duration.ofSeconds(10))
            .maxAttempts(1)
            .build()) {
      awaitServer(client);
      client.createQueue(FaultBenchmark.queue());
      for (int i = 0; i < workers; i++) {
        startWorker(batch);
      }
      producer = new Thread(() -> FaultBenchmark.produce(client, jobs, stop), "fault-producer");
      producer.start();
      List<String> plan = plan(serverKills, workerKills, storeRestarts);
      long deadline = System.nanoTime() + limit.toNanos();
      try {
        for (int i = 0; i < plan.size(); i++) {
          long due =
              (long) jobs
                  * (i + 1)
                  / (plan.size() + 2); // room after the last fault to see it recover
          awaitProgress(() -> records.distinctNumbersRun() >= due, deadline);
          faults.add(fire(plan.get(i), client, batch, workers, deadline));
          out.println(
              FaultBenchmark.format(
                  "faults: %s %s after %d jobs, recovered in %d ms",
                  store.name(),
                  plan.get(i),
                  faults.get(i).atJobs(),
                  faults.get(i).recoveryMillis()));
          out.flush();
        }
        awaitProgress(() -> records.distinctNumbersRun() >= jobs, deadline);
        Thread.sleep(1000); // late acks and runs still on their way: let them land before counting
        records.poll();
      } catch (IllegalStateException e) {
        timedOut = true;
        out.println("faults: " + store.name() + ": " + e.getMessage());
      }
    } finally {
      stop.set(true);
      if (producer != null) {
        producer.join(30_000);
      }
      for (Process worker : workerProcesses) {
        worker.toHandle().destroyForcibly();
        worker.waitFor();
      }
      if (server != null) {
        server.toHandle().destroyForcibly();
        server.waitFor();
      }
    }
    long millis = System.currentTimeMillis() - started;
    int bound = faults.stream().mapToInt(Fault::inFlightBound).sum();
    return new Result(
        store.name(),
        millis,
        records.lost(jobs),
        records.runs(),
        records.reruns(),
        records.runsAfterConfirmedAck(),
        records.doubleEnqueues(),
        bound,
        faults,
        timedOut);
  }

  /** The faults, spread: server kills and the store restarts evenly among the worker kills. */
  static List<String> plan(int serverKills, int workerKills, int storeRestarts) {
    String[] kinds = {"worker-kill", "server-kill", "store-restart"};
    int[] wanted = {workerKills, serverKills, storeRestarts};
    int[] placed = new int[3];
    int total = workerKills + serverKills + storeRestarts;
    List<String> plan = new ArrayList<>();
    for (int k = 0; k < total; k++) {
      int best = -1;
      double bestLag = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < 3; i++) {
        double lag = (double) wanted[i] * (k + 1) / total - placed[i];
        if (placed[i] < wanted[i] && lag > bestLag) {
          best = i;
          bestLag = lag;
        }
      }
      placed[best]++;
      plan.add(kinds[best]);
    }
    return plan;
  }

  private Fault fire(String kind, QueueClient client, int batch, int workers, long deadline)
      throws Exception {
    long atJobs = records.distinctNumbersRun();
    long t0 = System.currentTimeMillis();
    switch (kind) {
      case "server-kill" -> {
        server.toHandle().destroyForcibly(); // SIGKILL
        server.waitFor();
        startServer();
        awaitServer(client);
        return recovered(kind, atJobs, t0, System.currentTimeMillis(), workers * batch, deadline);
      }
      case "store-restart" -> {
        store.restart();
        return recovered(kind, atJobs, t0, System.currentTimeMillis(), workers * batch, deadline);
      }
      default -> {
        Process victim = workerProcesses.remove(0);
        victim.toHandle().destroyForcibly();
        victim.waitFor();
        Path file = startWorker(batch);
        awaitProgress(() -> records.firstRunOf(file) != null || allRan(), deadline);
        return new Fault(
            kind,
            atJobs,
            records.firstRunOf(file) == null ? -1 : records.firstRunOf(file) - t0,
            batch);
      }
    }
  }

  private Fault recovered(
      String kind, long atJobs, long t0, long backUp, int inFlight, long deadline)
      throws Exception {
    records.armAfter(backUp);
    awaitProgress(() -> records.firstRunAfterArmed() != null || allRan(), deadline);
    Long first = records.firstRunAfterArmed();
    return new Fault(kind, atJobs, first == null ? -1 : first - t0, inFlight);
  }

  /** Every job ran before a fault's recovery could be seen: its recovery time is unknown (-1). */
  private boolean allRan() {
    return records.distinctNumbersRun() >= jobs;
  }

  private void awaitProgress(java.util.function.BooleanSupplier done, long deadline)
      throws Exception {
    while (true) {
      records.poll();
      if (done.getAsBoolean()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "timed out after " + records.distinctNumbersRun() + " jobs run");
      }
      Thread.sleep(10);
    }
  }

  /** Until the server answers; IllegalStateException at once if its process has ended. */
  private void awaitServer(QueueClient client) throws InterruptedException {
    FaultBenchmark.awaitTrue(
        "the queue server",
        Duration.ofSeconds(120),
        () -> {
          if (!server.isAlive()) {
            throw new IllegalStateException(
                "the queue server exited with "
                    + server.exitValue()
                    + "; see "
                    + dir.resolve("queue-server.out"));
          }
          try {
            client.queueNames();
            return true;
          } catch (RuntimeException e) {
            return false;
          }
        });
  }

  private void startServer() throws IOException {
    server =
        java(
            dir.resolve("queue-server.out"),
            List.of("-Xmx384m", "-XX:+UseSerialGC"),
            "dev.flipper.launcher.Launcher",
            "-c",
            dir.resolve("queue.yaml").toString(),
            "-m",
            "queue");
  }

  private Path startWorker(int batch) throws IOException {
    Path file = dir.resolve("worker-" + (workerFiles++) + ".records");
    records.watch(file);
    workerProcesses.add(
        java(
            dir.resolve(file.getFileName() + ".out"),
            List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
            FaultWorker.class.getName(),
            "127.0.0.1",
            Integer.toString(serverPort),
            FaultBenchmark.queue(),
            Integer.toString(batch),
            file.toString()));
    return file;
  }

  private Process java(Path output, List<String> jvmFlags, String mainClass, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    command.addAll(List.of("-cp", classpath, mainClass));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    return builder.start();
  }
}
