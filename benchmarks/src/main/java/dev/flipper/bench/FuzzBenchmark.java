package dev.flipper.bench;

import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.RequestContext;
import dev.flipper.thrift.fuzz.FuzzInputs;
import dev.flipper.thrift.fuzz.MasterCalls;
import dev.flipper.thrift.fuzz.PinLaterCalls;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.server.TokenMasterServer;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench fuzz}: a queue server and/or a token master in this process on ephemeral
 * ports, each sent N malformed inputs (the fuzz tests' generator, {@link FuzzInputs}) over many
 * connections while a normal client calls every 20 ms. Prints inputs/s, the normal client's slowest
 * call and failures, heap growth after GC, this process's RSS and the log lines written. For runs
 * longer than the tests' 100,000 inputs. Writes nothing (in-memory stores). Not a test; one run per
 * instance.
 */
@Command(
    name = "fuzz",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Sends malformed inputs to in-process servers while a normal client calls them.",
      "Writes no data: the servers run on ephemeral ports over in-memory stores."
    })
public final class FuzzBenchmark implements Callable<Integer> {
  /**
   * The frame and message limit of the servers under test: small, so oversized inputs are cheap to
   * make.
   */
  private static final int LIMIT = 64 * 1024;

  private static final RequestContext CONTEXT = new RequestContext("bench:fuzz");
  private static final String QUEUE = "fuzz_q";

  /** Which servers to fuzz. */
  enum Target {
    queue,
    master,
    both
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--target",
      defaultValue = "both",
      paramLabel = "SERVER",
      description = "queue, master or both. Default: ${DEFAULT-VALUE}")
  Target target;

  @Option(
      names = "--inputs",
      defaultValue = "100000",
      paramLabel = "N",
      description = "Malformed inputs per server. Default: ${DEFAULT-VALUE}")
  int inputs;

  @Option(
      names = "--clients",
      defaultValue = "8",
      paramLabel = "N",
      description = "Connections sending inputs in parallel. Default: ${DEFAULT-VALUE}")
  int clients;

  @Option(
      names = "--seed",
      paramLabel = "SEED",
      description = "Seed of the inputs. Default: the clock")
  Long seed;

  @Override
  public Integer call() throws Exception {
    atLeast("--inputs", inputs, 1);
    atLeast("--clients", clients, 1);
    PrintWriter out = spec.commandLine().getOut();
    long firstSeed = seed != null ? seed : System.nanoTime();
    out.printf(
        Locale.ROOT,
        "fuzz benchmark: %d inputs per server from %d connections at a time, seed %d%n",
        inputs,
        clients,
        firstSeed);
    out.flush();
    boolean healthy = true;
    if (target != Target.master) {
      healthy &= fuzzQueueServer(out, firstSeed);
    }
    if (target != Target.queue) {
      healthy &= fuzzMaster(out, firstSeed);
    }
    return healthy ? 0 : 1;
  }

  private boolean fuzzQueueServer(PrintWriter out, long firstSeed) throws Exception {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    QueueService service = QueueService.builder(store).serverId("bench-fuzz").build();
    service.createQueue(QUEUE);
    QueueServer server =
        QueueServer.builder(service)
            .bindHost("127.0.0.1")
            .port(0)
            .maxFrameBytes(LIMIT)
            .maxReadBufferBytes(4L * LIMIT)
            .workerThreads(4)
            .maxConnectionsPerPeer(4096)
            .build()
            .start();
    try {
      List<byte[]> valid = PinLaterCalls.on(QUEUE, CONTEXT);
      NormalClient normal =
          new NormalClient(
              "127.0.0.1",
              () -> {
                TFramedTransport transport =
                    new TFramedTransport(new TSocket("127.0.0.1", server.port(), 1_000));
                transport.open();
                PinLater.Client api = new PinLater.Client(new TBinaryProtocol(transport));
                return new NormalClient.Connection(
                    () -> api.getQueueNames(CONTEXT), transport::close);
              });
      FuzzRun run = fuzz(server.port(), firstSeed, r -> FuzzInputs.framed(r, valid, LIMIT), normal);
      return run.print(out, "queue server", server.isRunning());
    } finally {
      server.close();
      store.close();
    }
  }

  private boolean fuzzMaster(PrintWriter out, long firstSeed) throws Exception {
    TokenMasterServer server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .maxMessageBytes(LIMIT)
            .maxConnections(1_024)
            .maxConnectionsPerPeer(1_024)
            .messageReadTimeout(Duration.ofSeconds(5))
            .build()
            .start();
    try {
      List<byte[]> valid = MasterCalls.forFuzzing();
      // From 127.0.0.2: the inputs' connections from 127.0.0.1 may use up that address's connection
      // limit.
      NormalClient normal =
          new NormalClient(
              "127.0.0.2",
              () -> {
                Socket raw = new Socket();
                raw.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                raw.connect(new InetSocketAddress("127.0.0.1", server.port()));
                raw.setSoTimeout(1_000);
                TokenMasterService.Client api =
                    new TokenMasterService.Client(new TBinaryProtocol(new TSocket(raw)));
                QueryRequest none =
                    new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/none/")));
                return new NormalClient.Connection(() -> api.query(none), raw::close);
              });
      FuzzRun run =
          fuzz(server.port(), firstSeed + 1_000, r -> FuzzInputs.unframed(r, valid), normal);
      return run.print(out, "token master", server.isRunning());
    } finally {
      server.close();
    }
  }

  private FuzzRun fuzz(
      int port, long firstSeed, Function<Random, byte[]> input, NormalClient normal)
      throws InterruptedException {
    long heapBefore = ProcessFigures.usedHeapAfterGc();
    try (LogLines log = LogLines.counting()) {
      normal.start();
      ExecutorService senders = Executors.newFixedThreadPool(clients);
      AtomicInteger remaining = new AtomicInteger(inputs);
      long started = System.nanoTime();
      for (int c = 0; c < clients; c++) {
        Random random = new Random(firstSeed + c);
        senders.execute(() -> FuzzInputs.send(port, random, remaining, input));
      }
      senders.shutdown();
      senders.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
      long nanos = System.nanoTime() - started;
      normal.stop();
      return new FuzzRun(
          inputs,
          nanos,
          normal,
          ProcessFigures.usedHeapAfterGc() - heapBefore,
          ProcessFigures.residentSetBytes(),
          log.lines());
    }
  }

  /** The figures of one server's run. */
  private record FuzzRun(
      int inputs, long nanos, NormalClient normal, long heapGrowth, long rss, long logLines) {
    /**
     * Prints them; true if the server kept running and the normal client got every answer within 1
     * s.
     */
    boolean print(PrintWriter out, String server, boolean running) {
      double seconds = nanos / 1e9;
      out.printf(
          Locale.ROOT,
          "%s: %d inputs in %.1f s (%.0f inputs/s); normal client: %d calls, %d failed,"
              + " slowest %d ms; heap growth after GC %d KiB; RSS %d MiB; log %d lines; %s%n",
          server,
          inputs,
          seconds,
          inputs / seconds,
          normal.calls(),
          normal.failures().size(),
          normal.slowestMillis(),
          heapGrowth / 1024,
          rss >> 20,
          logLines,
          running ? "still running" : "STOPPED");
      for (String failure : normal.failures()) {
        out.println("  normal client: " + failure);
      }
      out.flush();
      return running && normal.failures().isEmpty();
    }
  }

  private void atLeast(String option, int value, int min) {
    if (value < min) {
      throw new ParameterException(
          spec.commandLine(), option + " must be >= " + min + ", was " + value);
    }
  }
}
