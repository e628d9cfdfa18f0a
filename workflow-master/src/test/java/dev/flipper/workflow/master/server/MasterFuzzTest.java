package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.thrift.fuzz.FuzzInputs;
import dev.flipper.thrift.fuzz.MasterCalls;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 100,000 random, truncated, mutated and oversized requests to the master over TCP (more with
 * {@code -Dfuzz.inputs=N}): the master stays up, a normal client (from 127.0.0.2) gets every answer
 * within 1 s during the run, heap growth after GC stays under 64 MiB, process RSS under 1.5 GiB
 * (-Xmx1g), the log under 20 lines.
 */
@Tag("slow")
class MasterFuzzTest {
  private static final int LIMIT = 64 * 1024;
  private static final int INPUTS = Integer.getInteger("fuzz.inputs", 100_000);
  private static final int CLIENTS = 8;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void garbageNeverHurtsTheMaster() throws Exception {
    long seed = System.nanoTime();
    MetricRegistry metrics = new MetricRegistry();
    try (TokenMasterServer server =
            TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
                .port(0)
                .bindHost("127.0.0.1")
                .metrics(metrics)
                .maxMessageBytes(LIMIT)
                .maxConnections(1_024)
                .maxConnectionsPerPeer(1_024)
                .messageReadTimeout(Duration.ofSeconds(5))
                .build()
                .start();
        LogVolume log = new LogVolume()) {
      List<byte[]> valid = MasterCalls.forFuzzing();
      long heapBefore = usedHeapAfterGc();
      NormalClient normal = new NormalClient(server.port());
      normal.start();
      ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
      AtomicInteger remaining = new AtomicInteger(INPUTS);
      long started = System.nanoTime();
      for (int c = 0; c < CLIENTS; c++) {
        Random random = new Random(seed + c);
        clients.execute(
            () ->
                FuzzInputs.send(
                    server.port(), random, remaining, r -> FuzzInputs.unframed(r, valid)));
      }
      clients.shutdown();
      assertThat(clients.awaitTermination(240, TimeUnit.SECONDS)).isTrue();
      long fuzzMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      normal.stop();

      await("the master settles (seed " + seed + ")")
          .atMost(Duration.ofSeconds(30))
          .until(() -> server.connectionCount() == 0);
      long heapGrowth = usedHeapAfterGc() - heapBefore;
      long rss = residentSetBytes();
      System.out.printf(
          "master fuzz: %d inputs in %d ms; normal client: %d calls, slowest %d ms; heap growth %d "
              + "KiB, RSS %d MiB; log %d lines, %d bytes%n",
          INPUTS,
          fuzzMillis,
          normal.calls.get(),
          TimeUnit.NANOSECONDS.toMillis(normal.slowestNanos.get()),
          heapGrowth / 1024,
          rss >> 20,
          log.lines(),
          log.bytes());
      assertThat(normal.failures)
          .as("normal calls failed or slower than 1 s (seed %d)", seed)
          .isEmpty();
      assertThat(normal.calls.get()).isGreaterThan(0);
      assertThat(heapGrowth)
          .as("heap growth in bytes (seed %d)", seed)
          .isLessThan(64L * 1024 * 1024);
      assertThat(rss).as("resident set size").isLessThan(1536L * 1024 * 1024);
      assertThat(log.lines()).as("log lines written during the fuzzing").isLessThanOrEqualTo(20);
      assertThat(server.isRunning()).isTrue();
    }
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long residentSetBytes() throws IOException {
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
   * Queries every 20 ms over one connection from 127.0.0.2 with a 1 s read time-out; notes every
   * failure.
   */
  private static final class NormalClient {
    private final int port;
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicLong slowestNanos = new AtomicLong();
    private volatile boolean running = true;
    private Thread thread;

    NormalClient(int port) {
      this.port = port;
    }

    void start() {
      thread = new Thread(this::run, "normal-client");
      thread.start();
    }

    void stop() throws InterruptedException {
      running = false;
      thread.join();
    }

    private void run() {
      try (Socket raw = new Socket()) {
        raw.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
        raw.connect(new InetSocketAddress("127.0.0.1", port));
        raw.setSoTimeout(1_000);
        TokenMasterService.Client client =
            new TokenMasterService.Client(new TBinaryProtocol(new TSocket(raw)));
        while (running) {
          long start = System.nanoTime();
          try {
            client.query(
                new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/none/"))));
          } catch (Exception e) {
            failures.add("call " + calls.get() + ": " + e);
            return;
          }
          slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
          calls.incrementAndGet();
          Thread.sleep(20);
        }
      } catch (Exception e) {
        failures.add("connect: " + e);
      }
    }
  }
}
