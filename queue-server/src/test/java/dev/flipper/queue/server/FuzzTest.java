package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.thrift.PinLater;
import dev.flipper.thrift.fuzz.FuzzInputs;
import dev.flipper.thrift.fuzz.PinLaterCalls;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 100,000 random, truncated, mutated and oversized frames (more with {@code -Dfuzz.inputs=N}): each
 * may close its own connection, none may take the server down, delay a normal client (every call
 * answered within 1 s during the run), leak threads or memory, leak its frame-buffer budget, or
 * write more than a few log lines. Bounds: heap growth after GC under 64 MiB, process RSS under 1.5
 * GiB (the test JVM has -Xmx1g), at most 20 log lines.
 */
@Tag("slow")
class FuzzTest {
  private static final int MAX_FRAME = 64 * 1024;
  private static final int INPUTS = Integer.getInteger("fuzz.inputs", 100_000);
  private static final int CLIENTS = 8;
  private static final long RSS_BOUND_BYTES = 1536L * 1024 * 1024;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void garbageNeverHurtsTheServer() throws Exception {
    long seed = System.nanoTime();
    try (TestServer server =
            TestServer.start(
                b ->
                    b.maxFrameBytes(MAX_FRAME)
                        .maxReadBufferBytes(4L * MAX_FRAME)
                        .workerThreads(4)
                        .maxConnectionsPerPeer(4096));
        LogVolume log = new LogVolume()) {
      server.service.createQueue("fuzz_q");
      List<byte[]> valid = PinLaterCalls.on("fuzz_q", TestServer.CONTEXT);
      assertServerAnswers(server);
      int threadsBefore = Thread.activeCount();
      long heapBefore = usedHeapAfterGc();

      NormalClient normal = new NormalClient(server);
      normal.start();
      // Connection set-up is the slow part, so many clients fuzz in parallel, each with its own
      // seeded stream.
      ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
      AtomicInteger remaining = new AtomicInteger(INPUTS);
      long started = System.nanoTime();
      for (int c = 0; c < CLIENTS; c++) {
        Random random = new Random(seed + c);
        clients.execute(
            () ->
                FuzzInputs.send(
                    server.port(), random, remaining, r -> FuzzInputs.framed(r, valid, MAX_FRAME)));
      }
      clients.shutdown();
      assertThat(clients.awaitTermination(240, TimeUnit.SECONDS)).isTrue();
      long fuzzMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      normal.stop();

      await("the server answers after the fuzzing (seed " + seed + ")")
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .until(() -> assertServerAnswers(server));
      await("thread count settles (seed " + seed + ")")
          .atMost(Duration.ofSeconds(20))
          .until(() -> Thread.activeCount() <= threadsBefore + 5);
      long heapGrowth = usedHeapAfterGc() - heapBefore;
      long rss = residentSetBytes();
      System.out.printf(
          "fuzz: %d inputs in %d ms; normal client: %d calls, slowest %d ms; heap growth %d KiB, "
              + "RSS %d MiB; log %d lines, %d bytes%n",
          INPUTS,
          fuzzMillis,
          normal.calls(),
          normal.slowestMillis(),
          heapGrowth / 1024,
          rss >> 20,
          log.lines(),
          log.bytes());
      assertThat(normal.failures())
          .as("normal calls failed or slower than 1 s (seed %d)", seed)
          .isEmpty();
      assertThat(normal.calls()).isGreaterThan(0);
      assertThat(heapGrowth)
          .as("heap growth in bytes (seed %d)", seed)
          .isLessThan(64L * 1024 * 1024);
      assertThat(rss).as("resident set size").isLessThan(RSS_BOUND_BYTES);
      assertThat(log.lines()).as("log lines written during the fuzzing").isLessThanOrEqualTo(20);
      assertThat(server.server.isRunning()).isTrue();
    }
  }

  private static boolean assertServerAnswers(TestServer server) throws Exception {
    try (TestServer.ThriftClient client = server.thriftClient()) {
      assertThat(client.api().getQueueNames(TestServer.CONTEXT)).contains("fuzz_q");
      return true;
    }
  }

  /** This process's resident set size, from /proc (Linux); 0 elsewhere. */
  static long residentSetBytes() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return 0;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return 0;
  }

  /**
   * A well-behaved client calling every 20 ms during the fuzzing over its own connection, with a
   * read time-out of 1 s; it notes every call that fails or times out.
   */
  static final class NormalClient {
    private final TestServer server;
    private final List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong slowestNanos =
        new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean running = true;
    private Thread thread;

    NormalClient(TestServer server) {
      this.server = server;
    }

    void start() {
      thread = new Thread(this::run, "normal-client");
      thread.start();
    }

    void stop() throws InterruptedException {
      running = false;
      thread.join();
    }

    List<String> failures() {
      return failures;
    }

    int calls() {
      return calls.get();
    }

    long slowestMillis() {
      return TimeUnit.NANOSECONDS.toMillis(slowestNanos.get());
    }

    private void run() {
      try {
        TSocket socket = new TSocket("127.0.0.1", server.port(), 1_000);
        TFramedTransport transport = new TFramedTransport(socket);
        transport.open();
        PinLater.Client api = new PinLater.Client(new TBinaryProtocol(transport));
        try {
          while (running) {
            long start = System.nanoTime();
            try {
              api.getQueueNames(TestServer.CONTEXT);
            } catch (Exception e) {
              failures.add("call " + calls.get() + ": " + e);
              return;
            }
            slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
            calls.incrementAndGet();
            Thread.sleep(20);
          }
        } finally {
          transport.close();
        }
      } catch (Exception e) {
        failures.add("connect: " + e);
      }
    }
  }

  private static long usedHeapAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
