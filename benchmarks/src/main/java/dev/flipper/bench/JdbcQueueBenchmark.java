package dev.flipper.bench;

import dev.flipper.jdbc.Dialect;
import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.mysql.bench.RawJdbcWorkload;
import dev.flipper.queue.mysql.bench.Workload;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench jdbc}: throughput of the JDBC queue store through {@link QueueService}, next
 * to the same SQL statements issued over plain JDBC connections (the ceiling), phase by phase:
 * enqueue at batch 1 and 100, dequeue+ack at batch 100 from a backlog, and the full
 * enqueue→dequeue→ack cycle at batch 100 with a separate ack. The optional phase {@code
 * cycle-piggyback} acks each batch on the next dequeue instead; its raw column does the ack and the
 * claim in one transaction (one commit fewer than Flipper), which on a CPU-bound 2-core machine
 * measured no faster.
 *
 * <p>It WRITES DATA, only to a database it creates (see {@link BenchDatabase}) and deletes at the
 * end. Not a test: numbers depend on the machine. Not thread-safe; one run per instance.
 */
@Command(
    name = "jdbc",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Benchmarks the queue on MariaDB/MySQL or H2, next to the same SQL over raw JDBC.",
      "Enqueue at batch 1 and 100, dequeue+ack at batch 100 and the full cycle, through QueueService and "
          + "over raw JDBC; also CPU per job and the statements the server ran per 100 jobs.",
      "WRITES DATA, only to a database it creates (a new H2 file for jdbc:h2:) and drops at the end; a "
          + "database or file that exists is refused."
    })
public final class JdbcQueueBenchmark implements Callable<Integer> {
  private static final String QUEUE = RawJdbcWorkload.QUEUE;
  private static final int BATCH = 100;

  @Spec CommandSpec spec;

  @Option(
      names = "--url",
      defaultValue = "jdbc:mysql://127.0.0.1:3306/",
      paramLabel = "URL",
      description =
          "jdbc:mysql://HOST:PORT/[NEW_DATABASE] on MySQL or MariaDB (the benchmark creates that "
              + "database, by default a unique "
              + BenchDatabase.NAME_PREFIX
              + "..., and drops it), or "
              + "jdbc:h2:file:NEW_PATH (a new H2 file; its files are deleted at the end). Default: ${DEFAULT-VALUE}")
  String url;

  @Option(
      names = "--user",
      defaultValue = "root",
      description = "Database user. Default: ${DEFAULT-VALUE}")
  String user;

  @Option(names = "--password", defaultValue = "", description = "Database password. Default: none")
  String password;

  @Option(
      names = "--threads",
      defaultValue = "4",
      description = "Client threads. Default: ${DEFAULT-VALUE}")
  int threads;

  @Option(
      names = "--seconds",
      defaultValue = "5",
      description = "Length of each measured phase. Default: ${DEFAULT-VALUE}")
  int seconds;

  @Option(
      names = "--warmup",
      defaultValue = "5",
      paramLabel = "SECONDS",
      description =
          "Untimed full cycle per workload before the phases (JIT, caches); 0 skips it. Default: ${DEFAULT-VALUE}")
  int warmup;

  @Option(
      names = "--body-bytes",
      defaultValue = "100",
      description = "Size of each job body. Default: ${DEFAULT-VALUE}")
  int bodyBytes;

  @Option(
      names = "--backlog",
      defaultValue = "100000",
      description = "Jobs inserted before the dequeue100 phase. Default: ${DEFAULT-VALUE}")
  int backlog;

  @Option(
      names = "--repeat",
      defaultValue = "2",
      description = "Runs of each phase; the best one is printed. Default: ${DEFAULT-VALUE}")
  int repeat;

  @Option(
      names = "--phases",
      split = ",",
      paramLabel = "PHASE",
      converter = KindConverter.class,
      defaultValue = "enqueue1,enqueue100,dequeue100,cycle",
      description =
          "Phases to run, of enqueue1, enqueue100, dequeue100, cycle, cycle-piggyback. Default: ${DEFAULT-VALUE}")
  List<Kind> phases;

  @Option(
      names = "--workloads",
      split = ",",
      paramLabel = "WORKLOAD",
      description =
          "flipper (through QueueService) and/or raw (plain JDBC). Default: flipper,raw; on H2 flipper "
              + "only (H2 runs MySQL's one-statement claim badly: it locks the whole backlog)")
  List<String> workloads;

  private byte[] body;
  private BenchDatabase database;
  private PrintWriter out;

  @Override
  public Integer call() throws Exception {
    validate();
    out = spec.commandLine().getOut();
    body = new byte[bodyBytes];
    Arrays.fill(body, (byte) 'x');
    database = BenchDatabase.create(spec, url, user, password);
    try {
      run();
    } finally {
      database.close();
    }
    out.flush();
    return 0;
  }

  private void validate() {
    atLeast("--threads", threads, 1);
    atLeast("--seconds", seconds, 1);
    atLeast("--warmup", warmup, 0);
    atLeast("--body-bytes", bodyBytes, 0);
    atLeast("--backlog", backlog, 0);
    atLeast("--repeat", repeat, 1);
    if (workloads == null) {
      workloads =
          url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")
              ? List.of("flipper")
              : List.of("flipper", "raw");
    }
    for (String workload : workloads) {
      if (!workload.equals("flipper") && !workload.equals("raw")) {
        throw new ParameterException(
            spec.commandLine(),
            "unknown workload '" + workload + "' in --workloads: use flipper and/or raw");
      }
    }
  }

  private void atLeast(String option, int value, int minimum) {
    if (value < minimum) {
      throw new ParameterException(
          spec.commandLine(), option + " must be at least " + minimum + ", was " + value);
    }
  }

  private void run() throws Exception {
    out.println("Flipper JDBC queue benchmark (writes data, only to its own database)");
    out.println("  " + database.describe());
    printServerSettings();
    out.printf(
        Locale.ROOT,
        "  threads %d, body %d bytes, %d s warm-up, %d s per phase, best of %d, backlog %d jobs%n%n",
        threads,
        body.length,
        warmup,
        seconds,
        repeat,
        backlog);
    out.flush();
    boolean runFlipper = workloads.contains("flipper");
    boolean runRaw = workloads.contains("raw");
    JdbcShardConfig shard = new JdbcShardConfig("1", database.url(), user, password, false);
    try (JdbcQueueStore store =
        JdbcQueueStore.builder()
            .shards(List.of(shard))
            .poolSize(Math.max(2, threads + 2))
            .build()) {
      QueueService service = QueueService.builder(store).serverId("bench").build();
      service.createQueue(QUEUE);
      Dialect dialect = Dialect.forUrl(database.url());
      String rawUrl = dialect.configureUrl(database.url(), Duration.ofSeconds(5));
      Workload flipper = new FlipperWorkload(service);
      Workload raw = new RawJdbcWorkload(rawUrl, user, password, dialect.queueRowLock(), body);

      if (warmup > 0) { // JIT, statement caches, buffer pool; not reported
        if (runRaw) {
          measure(raw, Kind.CYCLE, Duration.ofSeconds(warmup));
        }
        if (runFlipper) {
          measure(flipper, Kind.CYCLE, Duration.ofSeconds(warmup));
        }
      }
      out.printf(
          Locale.ROOT,
          "%-24s %15s %15s %7s %22s %26s%n",
          "phase",
          "flipper jobs/s",
          "raw JDBC jobs/s",
          "ratio",
          "client CPU us/job f/r",
          "statements/100 jobs f/r");
      for (Kind kind : phases) {
        // Alternate the two and keep each one's best run: on a shared machine, load comes and goes.
        Result ceiling = Result.NONE;
        Result ours = Result.NONE;
        for (int round = 0; round < repeat; round++) {
          ceiling =
              runRaw
                  ? Result.best(ceiling, measure(raw, kind, Duration.ofSeconds(seconds)))
                  : ceiling;
          ours =
              runFlipper
                  ? Result.best(ours, measure(flipper, kind, Duration.ofSeconds(seconds)))
                  : ours;
        }
        out.printf(
            Locale.ROOT,
            "%-24s %15s %15s %7s %10s / %-10s %12s / %-12s%n",
            kind.label,
            Cells.of("%.0f", ours.jobsPerSecond()),
            Cells.of("%.0f", ceiling.jobsPerSecond()),
            Cells.of("%.0f%%", 100 * ours.jobsPerSecond() / ceiling.jobsPerSecond()),
            Cells.of("%.1f", ours.cpuMicrosPerJob()),
            Cells.of("%.1f", ceiling.cpuMicrosPerJob()),
            Cells.of("%.0f", ours.statementsPer100Jobs()),
            Cells.of("%.0f", ceiling.statementsPer100Jobs()));
        out.flush();
      }
    }
  }

  /** Reads a phase name of --phases. */
  static final class KindConverter implements CommandLine.ITypeConverter<Kind> {
    @Override
    public Kind convert(String value) {
      try {
        return Kind.named(value.trim());
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  enum Kind {
    ENQUEUE_1("enqueue1", "enqueue, batch 1"),
    ENQUEUE_100("enqueue100", "enqueue, batch 100"),
    DEQUEUE_ACK_100("dequeue100", "dequeue+ack, batch 100"),
    CYCLE("cycle", "full cycle, batch 100"),
    CYCLE_PIGGYBACK("cycle-piggyback", "cycle, piggy-backed ack");

    final String option;
    final String label;

    Kind(String option, String label) {
      this.option = option;
      this.label = label;
    }

    static Kind named(String option) {
      for (Kind kind : values()) {
        if (kind.option.equals(option)) {
          return kind;
        }
      }
      throw new IllegalArgumentException(
          "unknown phase '"
              + option
              + "'; use enqueue1, enqueue100, dequeue100, cycle or cycle-piggyback");
    }
  }

  /**
   * Throughput of one phase, this process's CPU time per job (the database server's is not
   * included) and the statements the server executed per 100 jobs (SELECT, INSERT, INSERT ...
   * SELECT, UPDATE, COMMIT and ROLLBACK, counted server-wide, so other clients add noise; unknown
   * on H2). NaN where nothing was measured: printed as "-".
   */
  record Result(double jobsPerSecond, double cpuMicrosPerJob, double statementsPer100Jobs) {
    static final Result NONE = new Result(Double.NaN, Double.NaN, Double.NaN);

    static Result best(Result a, Result b) {
      return Double.isNaN(a.jobsPerSecond) || b.jobsPerSecond > a.jobsPerSecond ? b : a;
    }
  }

  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
  }

  /** Runs one phase on empty tables. */
  private Result measure(Workload workload, Kind kind, Duration phase) throws Exception {
    truncate();
    if (kind == Kind.DEQUEUE_ACK_100) {
      prefill();
    }
    ExecutorService executor =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "bench-worker");
              t.setDaemon(true); // a failed phase must not keep the JVM alive
              return t;
            });
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Long>> results = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String source = "bench-" + t;
      results.add(
          executor.submit(
              () -> {
                try (Workload.Worker worker = workload.worker(source)) {
                  start.await();
                  long jobs = 0;
                  while (!stop.get()) {
                    switch (kind) {
                      case ENQUEUE_1 -> jobs += worker.enqueue(1);
                      case ENQUEUE_100 -> jobs += worker.enqueue(BATCH);
                      case DEQUEUE_ACK_100 -> {
                        int n = worker.dequeueAndAck(BATCH);
                        if (n == 0) {
                          return jobs;
                        }
                        jobs += n;
                      }
                      case CYCLE -> {
                        worker.enqueue(BATCH);
                        jobs += worker.dequeueAndAck(BATCH);
                      }
                      case CYCLE_PIGGYBACK -> {
                        worker.enqueue(BATCH);
                        jobs += worker.dequeueAckingPrevious(BATCH);
                      }
                    }
                  }
                  return jobs + worker.ackPrevious();
                }
              }));
    }
    long statementsBefore = serverStatements();
    long began = System.nanoTime();
    long cpuBefore = processCpuNanos();
    start.countDown();
    long deadline = began + phase.toNanos();
    while (System.nanoTime() < deadline && !results.stream().allMatch(Future::isDone)) {
      Thread.sleep(20);
    }
    stop.set(true);
    long total = 0;
    for (Future<Long> result : results) {
      total += result.get();
    }
    double seconds = (System.nanoTime() - began) / 1e9;
    long cpu = processCpuNanos() - cpuBefore;
    executor.shutdown();
    long statements = serverStatements() - statementsBefore;
    return new Result(
        total / seconds,
        total == 0 ? Double.NaN : cpu / 1e3 / total,
        total == 0 || statementsBefore < 0 ? Double.NaN : 100.0 * statements / total);
  }

  // ------------------------------------------------------------------------------------------
  // database

  private void printServerSettings() throws SQLException {
    if (database.isH2()) {
      out.println("  server: embedded H2");
      return;
    }
    try (Connection c = DriverManager.getConnection(database.serverUrl(), user, password);
        Statement st = c.createStatement()) {
      String version;
      try (ResultSet rs = st.executeQuery("SELECT VERSION()")) {
        rs.next();
        version = rs.getString(1);
      }
      Map<String, String> vars = new LinkedHashMap<>();
      try (ResultSet rs =
          st.executeQuery(
              "SHOW VARIABLES WHERE Variable_name IN"
                  + " ('innodb_flush_log_at_trx_commit', 'sync_binlog', 'log_bin', 'innodb_buffer_pool_size')")) {
        while (rs.next()) {
          vars.put(rs.getString(1), rs.getString(2));
        }
      }
      out.println("  server: " + version + ", " + vars);
      if (!"1".equals(vars.get("innodb_flush_log_at_trx_commit"))) {
        out.println(
            "  WARNING: innodb_flush_log_at_trx_commit="
                + vars.get("innodb_flush_log_at_trx_commit")
                + ": commits are not durable, so these numbers overstate production throughput (use 1)");
      }
    }
  }

  /**
   * The server's count of executed SELECT, INSERT, UPDATE, COMMIT and ROLLBACK statements; -1 on
   * H2.
   */
  private long serverStatements() throws SQLException {
    if (database.isH2()) {
      return -1;
    }
    long sum = 0;
    try (Connection c = DriverManager.getConnection(database.serverUrl(), user, password);
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SHOW GLOBAL STATUS WHERE Variable_name IN"
                    + " ('Com_select', 'Com_insert', 'Com_insert_select', 'Com_update', 'Com_commit', 'Com_rollback')")) {
      while (rs.next()) {
        sum += rs.getLong(2);
      }
    }
    return sum;
  }

  private void truncate() throws SQLException {
    try (Connection c = DriverManager.getConnection(database.url(), user, password);
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE TABLE flipper_jobs");
    }
  }

  /** Inserts the backlog for the dequeue phase in large batches (not timed). */
  private void prefill() throws SQLException {
    RawJdbcWorkload.insertBacklog(database.url(), user, password, backlog, body);
  }

  // ------------------------------------------------------------------------------------------
  // workloads

  /** Through the public API: QueueService over JdbcQueueStore. */
  private final class FlipperWorkload implements Workload {
    private final QueueService service;

    FlipperWorkload(QueueService service) {
      this.service = service;
    }

    @Override
    public Worker worker(String source) {
      return new Worker() {
        @Override
        public int enqueue(int batch) {
          List<NewJob> jobs = new ArrayList<>(batch);
          for (int i = 0; i < batch; i++) {
            jobs.add(NewJob.of(body));
          }
          List<JobDescriptor> ids = service.enqueue(QUEUE, jobs);
          return ids.size();
        }

        private List<AckParams.Item> previous = List.of();

        @Override
        public int dequeueAndAck(int batch) {
          List<DequeuedJob> jobs = service.dequeue(DequeueParams.of(QUEUE, batch, source));
          if (!jobs.isEmpty()) {
            service.ack(new AckParams(QUEUE, succeeded(jobs), List.of()));
          }
          return jobs.size();
        }

        @Override
        public int dequeueAckingPrevious(int batch) {
          int acked = previous.size();
          AckParams ack = new AckParams(QUEUE, previous, List.of());
          previous =
              succeeded(service.dequeue(DequeueParams.of(QUEUE, batch, source).withAck(ack)));
          return acked;
        }

        @Override
        public int ackPrevious() {
          int acked = previous.size();
          if (acked > 0) {
            service.ack(new AckParams(QUEUE, previous, List.of()));
            previous = List.of();
          }
          return acked;
        }

        private List<AckParams.Item> succeeded(List<DequeuedJob> jobs) {
          return jobs.stream().map(j -> AckParams.Item.of(j.descriptor())).toList();
        }

        @Override
        public void close() {}
      };
    }
  }
}
