package dev.flipper.bench.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.HdrHistogram.Recorder;

/**
 * The suite's phases over one {@link Driver}, the same for every system: bench/README.md says what each measures.
 * CPU is sampled around the measured part only (not the pre-fill of a drain).
 */
final class Phases {
  private static final int BATCH = 100;

  private final String system;
  private final Driver driver;
  private final CpuMeter cpu;
  private final int producers;
  private final int inflight;
  private final double seconds;

  Phases(String system, Driver driver, CpuMeter cpu, int producers, int inflight, double seconds) {
    this.system = system;
    this.driver = driver;
    this.cpu = cpu;
    this.producers = producers;
    this.inflight = inflight;
    this.seconds = seconds;
  }

  /** {@code producers} threads enqueue one job per call for the phase's time. */
  Result enqueueSingle() throws Exception {
    return enqueueFor("enqueue-single", () -> {
      driver.enqueue(Body.stamped(System.nanoTime()));
      return 1;
    });
  }

  /** {@code producers} threads enqueue batches of 100 for the phase's time. */
  Result enqueueBatch() throws Exception {
    return enqueueFor("enqueue-batch", () -> {
      driver.enqueueBatch(batch());
      return BATCH;
    });
  }

  /**
   * Pre-fills {@code jobs} jobs (not measured), then runs them with the system's worker ({@code worker}) or plain
   * client until all ran or {@code maxSeconds} passed.
   */
  Result drain(String phase, boolean worker, int jobs, double maxSeconds) throws Exception {
    long fillStart = System.nanoTime();
    fill(jobs);
    // a log line, not a result: a pre-fill much slower than the drain says the store was the limit
    System.err.printf("%s %s: pre-filled %d jobs in %.1f s%n", system, phase, jobs, secondsSince(fillStart));
    AtomicLong ran = new AtomicLong();
    Consumer<byte[]> handler = body -> ran.incrementAndGet();
    Map<String, Double> cpuBefore = cpu.snapshot();
    long start = System.nanoTime();
    try (Driver.Consumers consumers =
        worker ? driver.consume(inflight, handler) : driver.consumeWithClient(inflight, handler)) {
      if (consumers == null) {
        return null;
      }
      waitFor(() -> ran.get() >= jobs, start, maxSeconds);
      double elapsed = secondsSince(start);
      Map<String, Double> spent = CpuMeter.since(cpuBefore, cpu.snapshot());
      return new Result(system, phase, ran.get(), elapsed, ran.get() / elapsed, null,
          Math.max(0, jobs - ran.get()), null, spent);
    }
  }

  /**
   * Producers enqueue at {@code rate} jobs per second in all while the worker runs jobs: does the worker keep up (ran
   * per second against enqueued per second, and what is left waiting at the end)?
   */
  Result mixed(double rate) throws Exception {
    return mixed("mixed", rate, inflight);
  }

  /** {@link #mixed(double)} with a worker of another size, named {@code phase}. */
  Result mixed(String phase, double rate, int jobsInFlight) throws Exception {
    AtomicLong ran = new AtomicLong();
    AtomicLong enqueued = new AtomicLong();
    Map<String, Double> cpuBefore = cpu.snapshot();
    long start = System.nanoTime();
    try (Driver.Consumers consumers = driver.consume(jobsInFlight, body -> ran.incrementAndGet())) {
      runPacedProducers(start, rate, enqueued);
      double elapsed = secondsSince(start);
      long ranInTime = ran.get();
      Map<String, Double> spent = CpuMeter.since(cpuBefore, cpu.snapshot());
      return new Result(system, phase, ranInTime, elapsed, ranInTime / elapsed, enqueued.get() / elapsed,
          Math.max(0, enqueued.get() - ranInTime), null, spent);
    }
  }

  /**
   * Producers enqueue at {@code rate} jobs per second in all while the worker runs them; enqueue-to-start latency,
   * from the time each job was due (so a producer that falls behind counts against the system).
   */
  Result latency(int percentOfDrain, double rate) throws Exception {
    Recorder latencies = new Recorder(3);
    AtomicLong ran = new AtomicLong();
    AtomicLong enqueued = new AtomicLong();
    Consumer<byte[]> handler = body -> {
      latencies.recordValue(Math.max(0, System.nanoTime() - Body.stamp(body)) / 1_000);
      ran.incrementAndGet();
    };
    Map<String, Double> cpuBefore = cpu.snapshot();
    long start = System.nanoTime();
    try (Driver.Consumers consumers = driver.consume(inflight, handler)) {
      runPacedProducers(start, rate, enqueued);
      long total = enqueued.get();
      waitFor(() -> ran.get() >= total, System.nanoTime(), 10);
      double elapsed = secondsSince(start);
      Map<String, Double> spent = CpuMeter.since(cpuBefore, cpu.snapshot());
      var histogram = latencies.getIntervalHistogram();
      Map<String, Double> percentiles = Map.of(
          "p50", histogram.getValueAtPercentile(50) / 1000.0,
          "p99", histogram.getValueAtPercentile(99) / 1000.0,
          "p999", histogram.getValueAtPercentile(99.9) / 1000.0);
      return new Result(system, "latency-" + percentOfDrain, ran.get(), elapsed, ran.get() / elapsed,
          total / seconds, Math.max(0, total - ran.get()), percentiles, spent);
    }
  }

  private Result enqueueFor(String phase, Call call) throws Exception {
    AtomicLong enqueued = new AtomicLong();
    Map<String, Double> cpuBefore = cpu.snapshot();
    long start = System.nanoTime();
    runProducers(start, () -> enqueued.addAndGet(call.run()));
    double elapsed = secondsSince(start);
    Map<String, Double> spent = CpuMeter.since(cpuBefore, cpu.snapshot());
    return new Result(system, phase, enqueued.get(), elapsed, enqueued.get() / elapsed, null, null, null, spent);
  }

  private void fill(int jobs) throws Exception {
    AtomicLong next = new AtomicLong();
    runThreads(producers, () -> {
      while (next.getAndAdd(BATCH) < jobs) {
        driver.enqueueBatch(batch());
      }
    });
  }

  private void runProducers(long start, Step step) throws Exception {
    long end = start + (long) (seconds * 1e9);
    runThreads(producers, () -> {
      while (System.nanoTime() < end) {
        step.run();
      }
    });
  }

  /**
   * Open-loop producers: job i of a producer is due at a fixed time; each call sends every job due by now (one job,
   * or up to 100 in one batch call when the producer is behind), stamped with its due time. So the offered rate holds
   * even where one call per job could not keep it, as an application that batches what has piled up would.
   */
  private void runPacedProducers(long start, double rate, AtomicLong enqueued) throws Exception {
    long end = start + (long) (seconds * 1e9);
    double interval = producers * 1e9 / rate; // between two jobs of one producer
    AtomicLong producer = new AtomicLong();
    runThreads(producers, () -> {
      long first = start + (long) (producer.getAndIncrement() * interval / producers);
      for (long sent = 0; ; ) {
        long due = first + (long) (sent * interval);
        if (due >= end) {
          return;
        }
        long wait = due - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        long now = System.nanoTime();
        List<byte[]> bodies = new ArrayList<>();
        for (long next = due; bodies.size() < BATCH && next <= now && next < end;
            next = first + (long) ((sent + bodies.size()) * interval)) {
          bodies.add(Body.stamped(next));
        }
        if (bodies.size() == 1) {
          driver.enqueue(bodies.get(0));
        } else {
          driver.enqueueBatch(bodies);
        }
        sent += bodies.size();
        enqueued.addAndGet(bodies.size());
      }
    });
  }

  private static void runThreads(int count, Step body) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(count);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        running.add(threads.submit(() -> {
          body.run();
          return null;
        }));
      }
      for (Future<?> thread : running) {
        thread.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier done, long start, double maxSeconds)
      throws InterruptedException {
    long deadline = start + (long) (maxSeconds * 1e9);
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }

  private static List<byte[]> batch() {
    List<byte[]> bodies = new ArrayList<>(BATCH);
    long now = System.nanoTime();
    for (int i = 0; i < BATCH; i++) {
      bodies.add(Body.stamped(now));
    }
    return bodies;
  }

  private static double secondsSince(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private interface Step {
    void run() throws Exception;
  }

  private interface Call {
    int run() throws Exception;
  }
}
