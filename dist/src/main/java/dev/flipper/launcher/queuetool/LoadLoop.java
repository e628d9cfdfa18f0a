package dev.flipper.launcher.queuetool;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Issues a query {@code numQueries} times (−1 = until the process is stopped) from {@code
 * concurrency} threads, printing QPS and latency once a second and a summary at the end, also when
 * the process is stopped (Ctrl-C, SIGTERM: a shutdown hook prints it). Thread-safe.
 */
final class LoadLoop {
  /** One query; throws on failure. */
  interface Query {
    void run() throws Exception;
  }

  private final PrintWriter out;
  private final PrintWriter err;
  private final Recorder recorder = new Recorder(3);
  private final Histogram total = new Histogram(3);
  private final AtomicLong issued = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicBoolean summarized = new AtomicBoolean();

  LoadLoop(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  /** Runs the loop; returns the number of failed queries. */
  long run(long numQueries, int concurrency, Query query) throws InterruptedException {
    long start = System.nanoTime();
    ScheduledExecutorService reporter =
        Executors.newSingleThreadScheduledExecutor(daemon("queue-tool-stats"));
    long[] lastReport = {start};
    reporter.scheduleAtFixedRate(() -> report(lastReport), 1, 1, TimeUnit.SECONDS);
    ExecutorService threads = Executors.newFixedThreadPool(concurrency, daemon("queue-tool-query"));
    for (int i = 0; i < concurrency; i++) {
      threads.execute(
          () -> {
            while (numQueries < 0 || issued.incrementAndGet() <= numQueries) {
              long began = System.nanoTime();
              try {
                query.run();
              } catch (Exception e) {
                failed.incrementAndGet();
                synchronized (err) {
                  err.println("query failed: " + e);
                  err.flush();
                }
              }
              recorder.recordValue(Math.max(1, (System.nanoTime() - began) / 1000));
            }
          });
    }
    Thread onStop = new Thread(() -> summarize(start, lastReport), "queue-tool-summary");
    Runtime.getRuntime().addShutdownHook(onStop);
    threads.shutdown();
    threads.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
    reporter.shutdownNow();
    reporter.awaitTermination(5, TimeUnit.SECONDS);
    summarize(start, lastReport);
    try {
      Runtime.getRuntime().removeShutdownHook(onStop);
    } catch (IllegalStateException shuttingDown) {
      // The hook runs or ran; the summary is printed once either way.
    }
    return failed.get();
  }

  /**
   * Prints the last window and the summary, once: at the end of the run or when the process is
   * stopped.
   */
  private void summarize(long start, long[] lastReport) {
    if (!summarized.compareAndSet(false, true)) {
      return;
    }
    report(lastReport);
    double seconds = (System.nanoTime() - start) / 1e9;
    synchronized (out) {
      out.printf(
          Locale.ROOT,
          "Summary: %d queries (%d failed) in %.2f s, QPS: %.1f, latency (ms) p50: %.3f "
              + "p99: %.3f max: %.3f%n",
          total.getTotalCount(),
          failed.get(),
          seconds,
          total.getTotalCount() / seconds,
          total.getValueAtPercentile(50) / 1000.0,
          total.getValueAtPercentile(99) / 1000.0,
          total.getMaxValue() / 1000.0);
      out.flush();
    }
  }

  /** Prints the window since the last report; the line starts as PinLater's tool printed it. */
  private synchronized void report(long[] lastReport) {
    long now = System.nanoTime();
    Histogram window = recorder.getIntervalHistogram();
    total.add(window);
    double seconds = (now - lastReport[0]) / 1e9;
    lastReport[0] = now;
    if (window.getTotalCount() == 0) {
      return;
    }
    synchronized (out) {
      out.printf(
          Locale.ROOT,
          "QPS: %d Avg Latency (ms): %.5f p50 (ms): %.3f p99 (ms): %.3f%n",
          Math.round(window.getTotalCount() / seconds),
          window.getMean() / 1000.0,
          window.getValueAtPercentile(50) / 1000.0,
          window.getValueAtPercentile(99) / 1000.0);
      out.flush();
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
