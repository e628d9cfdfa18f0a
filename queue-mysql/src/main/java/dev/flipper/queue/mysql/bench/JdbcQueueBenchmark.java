package dev.flipper.queue.mysql.bench;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.mysql.internal.ClaimFloors;
import dev.flipper.jdbc.internal.Dialect;
import dev.flipper.queue.mysql.internal.IdLists;
import dev.flipper.jdbc.internal.JdbcUrl;
import dev.flipper.queue.mysql.internal.JobSql;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Throughput of the JDBC queue store through {@link QueueService}, next to the same SQL statements issued
 * over plain JDBC connections (the ceiling), phase by phase: enqueue at batch 1 and 100, dequeue+ack at
 * batch 100 from a backlog, and the full enqueue→dequeue→ack cycle at batch 100 with a separate ack. The
 * optional phase {@code cycle-piggyback} acks each batch on the next dequeue instead; its raw column does the
 * ack and the claim in one transaction (one commit fewer than Flipper), which on a CPU-bound 2-core machine
 * measured no faster. It WRITES DATA: by default
 * it creates the database {@code flipper_bench_<random>} on the server of the URL and drops it at the end.
 *
 * <pre>
 * flipper bench jdbc [--url=jdbc:mysql://127.0.0.1:3306/]
 *     [--user=root] [--password=] [--threads=4] [--seconds=5] [--body-bytes=100] [--backlog=100000]
 *     [--phases=enqueue1,enqueue100,dequeue100,cycle,cycle-piggyback] [--workloads=flipper,raw] [--repeat=2]
 * </pre>
 *
 * Not a test: numbers depend on the machine. Not thread-safe; run once per process.
 */
public final class JdbcQueueBenchmark {
  private static final String QUEUE = "bench_q";
  private static final int BATCH = 100;

  private final Map<String, String> options;
  private final int threads;
  private final Duration phase;
  private final byte[] body;
  private final int backlog;
  private final List<Kind> phases;
  private final int repeat;
  private final boolean runFlipper;
  private final boolean runRaw;
  private String url;
  private String createdDatabase;
  private String serverUrl;

  private JdbcQueueBenchmark(Map<String, String> options) {
    this.options = options;
    this.threads = Integer.parseInt(options.getOrDefault("threads", "4"));
    this.phase = Duration.ofSeconds(Long.parseLong(options.getOrDefault("seconds", "5")));
    this.body = new byte[Integer.parseInt(options.getOrDefault("body-bytes", "100"))];
    java.util.Arrays.fill(body, (byte) 'x');
    this.backlog = Integer.parseInt(options.getOrDefault("backlog", "100000"));
    List<Kind> chosen = new ArrayList<>();
    for (String name : options.getOrDefault("phases", "enqueue1,enqueue100,dequeue100,cycle").split(",")) {
      chosen.add(Kind.named(name.trim()));
    }
    this.phases = List.copyOf(chosen);
    this.repeat = Integer.parseInt(options.getOrDefault("repeat", "2"));
    // The raw ceiling issues MySQL's one-statement claim, which H2 executes badly (it locks the whole
    // backlog), so on H2 only Flipper runs unless asked otherwise.
    boolean h2 = options.getOrDefault("url", "").toLowerCase(Locale.ROOT).startsWith("jdbc:h2:");
    String workloads = options.getOrDefault("workloads", h2 ? "flipper" : "flipper,raw");
    this.runFlipper = workloads.contains("flipper");
    this.runRaw = workloads.contains("raw");
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (String arg : args) {
      if (arg.equals("--help") || arg.equals("-h")) {
        System.out.println("usage: JdbcQueueBenchmark [--url=jdbc:mysql://127.0.0.1:3306/] [--user=root] [--password=]"
            + " [--threads=4] [--seconds=5] [--body-bytes=100] [--backlog=100000]"
            + " [--phases=enqueue1,enqueue100,dequeue100,cycle,cycle-piggyback] [--workloads=flipper,raw] [--repeat=2]");
        return;
      }
      if (!arg.startsWith("--") || !arg.contains("=")) {
        throw new IllegalArgumentException("argument '" + arg + "' is not of the form --name=value; see --help");
      }
      options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
    }
    new JdbcQueueBenchmark(options).run();
  }

  private String user() {
    return options.getOrDefault("user", "root");
  }

  private String password() {
    return options.getOrDefault("password", "");
  }

  private void run() throws Exception {
    prepareDatabase();
    try {
      System.out.println("Flipper JDBC queue benchmark (writes data; uses its own database)");
      System.out.println("  database: " + JdbcUrl.masked(url) + (createdDatabase != null ? " (dropped at the end)" : ""));
      printServerSettings();
      System.out.printf(Locale.ROOT, "  threads %d, body %d bytes, %d s per phase, best of %d, backlog %d jobs%n%n",
          threads, body.length, phase.toSeconds(), repeat, backlog);
      JdbcShardConfig shard = new JdbcShardConfig("1", url, user(), password(), false);
      try (JdbcQueueStore store = JdbcQueueStore.builder().shards(List.of(shard)).poolSize(Math.max(2, threads + 2)).build()) {
        QueueService service = QueueService.builder(store).serverId("bench").build();
        service.createQueue(QUEUE);
        String rawUrl = Dialect.forUrl(url).configureUrl(url, Duration.ofSeconds(5));
        Workload flipper = new FlipperWorkload(service);
        Workload raw = new RawJdbcWorkload(rawUrl, user(), password(), Dialect.forUrl(url).queueRowLock(), body);

        if (runRaw) {
          measure(raw, Kind.CYCLE); // warm-up: JIT, statement caches, buffer pool; not reported
        }
        if (runFlipper) {
          measure(flipper, Kind.CYCLE);
        }
        System.out.printf(Locale.ROOT, "%-24s %15s %15s %7s %22s %26s%n",
            "phase", "flipper jobs/s", "raw JDBC jobs/s", "ratio", "client CPU us/job f/r",
            "statements/100 jobs f/r");
        for (Kind kind : phases) {
          // Alternate the two and keep each one's best run: on a shared machine, load comes and goes.
          Result ceiling = Result.NONE;
          Result ours = Result.NONE;
          for (int round = 0; round < repeat; round++) {
            ceiling = runRaw ? Result.best(ceiling, measure(raw, kind)) : ceiling;
            ours = runFlipper ? Result.best(ours, measure(flipper, kind)) : ours;
          }
          System.out.printf(Locale.ROOT, "%-24s %15.0f %15.0f %6.0f%% %10.1f / %-10.1f %12.0f / %-12.0f%n", kind.label,
              ours.jobsPerSecond(), ceiling.jobsPerSecond(), 100 * ours.jobsPerSecond() / ceiling.jobsPerSecond(),
              ours.cpuMicrosPerJob(), ceiling.cpuMicrosPerJob(), ours.statementsPer100Jobs(),
              ceiling.statementsPer100Jobs());
        }
      }
    } finally {
      dropDatabase();
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
      throw new IllegalArgumentException("unknown phase '" + option + "'; use enqueue1, enqueue100, dequeue100, cycle or cycle-piggyback");
    }
  }

  /**
   * Throughput of one phase, this process's CPU time per job (the database server's is not included) and
   * the statements the server executed per 100 jobs (SELECT, INSERT, UPDATE, COMMIT and ROLLBACK, counted
   * server-wide, so other clients add noise; NaN on H2).
   */
  record Result(double jobsPerSecond, double cpuMicrosPerJob, double statementsPer100Jobs) {
    static final Result NONE = new Result(Double.NaN, Double.NaN, Double.NaN);

    static Result best(Result a, Result b) {
      return Double.isNaN(a.jobsPerSecond) || b.jobsPerSecond > a.jobsPerSecond ? b : a;
    }
  }

  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
  }

  /** Runs one phase on empty tables. */
  private Result measure(Workload workload, Kind kind) throws Exception {
    truncate();
    if (kind == Kind.DEQUEUE_ACK_100) {
      prefill();
    }
    ExecutorService executor = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "bench-worker");
      t.setDaemon(true); // a failed phase must not keep the JVM alive
      return t;
    });
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Long>> results = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String source = "bench-" + t;
      results.add(executor.submit(() -> {
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
    return new Result(total / seconds, total == 0 ? Double.NaN : cpu / 1e3 / total,
        total == 0 || statementsBefore < 0 ? Double.NaN : 100.0 * statements / total);
  }

  // ------------------------------------------------------------------------------------------ database

  private void prepareDatabase() throws SQLException {
    String given = options.getOrDefault("url", "jdbc:mysql://127.0.0.1:3306/");
    if (!given.toLowerCase(Locale.ROOT).startsWith("jdbc:mysql:") && !given.toLowerCase(Locale.ROOT).startsWith("jdbc:mariadb:")) {
      url = given; // embedded H2: the URL names the file to use
      return;
    }
    int hostStart = given.indexOf("//") + 2;
    int slash = given.indexOf('/', hostStart);
    int query = given.indexOf('?');
    String server = slash < 0 ? (query < 0 ? given : given.substring(0, query)) : given.substring(0, slash);
    String params = query < 0 ? "" : given.substring(query);
    createdDatabase = "flipper_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    serverUrl = server + "/" + params;
    try (Connection c = DriverManager.getConnection(serverUrl, user(), password()); Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + createdDatabase + " CHARACTER SET utf8mb4");
    }
    url = server + "/" + createdDatabase + params;
  }

  private void dropDatabase() throws SQLException {
    if (createdDatabase != null) {
      try (Connection c = DriverManager.getConnection(serverUrl, user(), password()); Statement st = c.createStatement()) {
        st.execute("DROP DATABASE IF EXISTS " + createdDatabase);
      }
    }
  }

  private void printServerSettings() throws SQLException {
    if (createdDatabase == null) {
      System.out.println("  server: embedded H2");
      return;
    }
    try (Connection c = DriverManager.getConnection(serverUrl, user(), password()); Statement st = c.createStatement()) {
      String version;
      try (ResultSet rs = st.executeQuery("SELECT VERSION()")) {
        rs.next();
        version = rs.getString(1);
      }
      Map<String, String> vars = new LinkedHashMap<>();
      try (ResultSet rs = st.executeQuery("SHOW VARIABLES WHERE Variable_name IN"
          + " ('innodb_flush_log_at_trx_commit', 'sync_binlog', 'log_bin', 'innodb_buffer_pool_size')")) {
        while (rs.next()) {
          vars.put(rs.getString(1), rs.getString(2));
        }
      }
      System.out.println("  server: " + version + ", " + vars);
      if (!"1".equals(vars.get("innodb_flush_log_at_trx_commit"))) {
        System.out.println("  WARNING: innodb_flush_log_at_trx_commit=" + vars.get("innodb_flush_log_at_trx_commit")
            + ": commits are not durable, so these numbers overstate production throughput (use 1)");
      }
    }
  }

  /** The server's count of executed SELECT, INSERT, UPDATE, COMMIT and ROLLBACK statements; -1 on H2. */
  private long serverStatements() throws SQLException {
    if (createdDatabase == null) {
      return -1;
    }
    long sum = 0;
    try (Connection c = DriverManager.getConnection(serverUrl, user(), password()); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
            + " ('Com_select', 'Com_insert', 'Com_update', 'Com_commit', 'Com_rollback')")) {
      while (rs.next()) {
        sum += rs.getLong(2);
      }
    }
    return sum;
  }

  private void truncate() throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user(), password()); Statement st = c.createStatement()) {
      st.execute("TRUNCATE TABLE flipper_jobs");
    }
  }

  /** Inserts the backlog for the dequeue phase in large batches (not timed). */
  private void prefill() throws SQLException {
    try (Connection c = DriverManager.getConnection(Dialect.forUrl(url).configureUrl(url, Duration.ofSeconds(5)), user(), password());
        PreparedStatement ps = c.prepareStatement(JobSql.INSERT_JOB)) {
      c.setAutoCommit(false);
      long now = System.currentTimeMillis() - 1000;
      for (int i = 0; i < backlog; i++) {
        RawJdbcWorkload.bindJob(ps, now, body);
        ps.addBatch();
        if (i % 1000 == 999 || i == backlog - 1) {
          ps.executeBatch();
          c.commit();
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------ workloads

  /** One way of driving the queue; a worker per thread. */
  interface Workload {
    Worker worker(String source) throws SQLException;

    interface Worker extends AutoCloseable {
      int enqueue(int batch) throws SQLException;

      /** Claims up to batch jobs and acks them as succeeded; returns how many. */
      int dequeueAndAck(int batch) throws SQLException;

      /**
       * Claims up to batch jobs, acking the jobs of the previous call as succeeded in the same call; returns
       * how many were acked. The claimed jobs wait for the next call or {@link #ackPrevious}.
       */
      int dequeueAckingPrevious(int batch) throws SQLException;

      /** Acks the jobs the last {@link #dequeueAckingPrevious} claimed, if any; returns how many. */
      int ackPrevious() throws SQLException;

      @Override
      void close() throws SQLException;
    }
  }

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
          previous = succeeded(service.dequeue(DequeueParams.of(QUEUE, batch, source).withAck(ack)));
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

  /**
   * The ceiling: the store's statements on one plain JDBC connection per thread, nothing else but the
   * store's retry after a deadlock.
   */
  static final class RawJdbcWorkload implements Workload {
    @FunctionalInterface
    private interface SqlCall<T> {
      T run() throws SQLException;
    }

    private final String url;
    private final String user;
    private final String password;
    private final String queueRowLock;
    private final byte[] body;
    /** Shared by the workload's connections, as a store shares one across its pool. */
    private final ClaimFloors floors = new ClaimFloors();

    private record DueRow(long id, long runAfter) {}

    RawJdbcWorkload(String url, String user, String password, String queueRowLock, byte[] body) {
      this.url = url;
      this.user = user;
      this.password = password;
      this.queueRowLock = queueRowLock;
      this.body = body;
    }

    static void bindJob(PreparedStatement ps, long now, byte[] body) throws SQLException {
      ps.setString(1, QUEUE);
      ps.setInt(2, 1);
      ps.setLong(3, now);
      ps.setLong(4, now);
      ps.setLong(5, now);
      ps.setInt(6, 2);
      ps.setInt(7, 2);
      ps.setString(8, "");
      ps.setBytes(9, body);
    }

    @Override
    public Worker worker(String source) throws SQLException {
      Connection c = DriverManager.getConnection(url, user, password);
      c.setAutoCommit(false);
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      byte[] sourceBytes = source.getBytes(StandardCharsets.UTF_8);
      Dialect dialect = Dialect.forUrl(url);
      String selectDue = JobSql.selectDue(dialect) + JobSql.SKIP_LOCKED;
      String selectDueFrom = JobSql.selectDueFrom(dialect) + JobSql.SKIP_LOCKED;
      String selectDueBelow = JobSql.selectDueBelow(dialect) + JobSql.SKIP_LOCKED;
      return new Worker() {
        @Override
        public int enqueue(int batch) throws SQLException {
          try (PreparedStatement lock = c.prepareStatement(JobSql.QUEUE_ROW + queueRowLock)) {
            lock.setString(1, QUEUE);
            lock.executeQuery().close();
          }
          int ids = 0;
          try (PreparedStatement ps = c.prepareStatement(JobSql.INSERT_JOB, Statement.RETURN_GENERATED_KEYS)) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < batch; i++) {
              bindJob(ps, now, body);
              ps.addBatch();
            }
            ps.executeBatch();
            try (ResultSet keys = ps.getGeneratedKeys()) {
              while (keys.next()) {
                ids++;
              }
            }
          }
          c.commit();
          return ids;
        }

        private List<Long> previous = List.of();

        @Override
        public int dequeueAndAck(int batch) throws SQLException {
          long now = System.currentTimeMillis();
          List<Long> ids = inTransaction(() -> claim(batch, now));
          if (ids.isEmpty()) {
            return 0;
          }
          inTransaction(() -> ack(ids, now));
          return ids.size();
        }

        @Override
        public int dequeueAckingPrevious(int batch) throws SQLException {
          long now = System.currentTimeMillis();
          int acked = previous.size();
          previous = inTransaction(() -> {
            if (acked > 0) {
              ack(previous, now);
            }
            return claim(batch, now);
          });
          return acked;
        }

        @Override
        public int ackPrevious() throws SQLException {
          int acked = previous.size();
          if (acked > 0) {
            inTransaction(() -> ack(previous, System.currentTimeMillis()));
            previous = List.of();
          }
          return acked;
        }

        /** Runs and commits; rolls back and runs again after a deadlock, as the store does. */
        private <T> T inTransaction(SqlCall<T> call) throws SQLException {
          for (int attempt = 1; ; attempt++) {
            try {
              T result = call.run();
              c.commit();
              return result;
            } catch (SQLException e) {
              c.rollback();
              if (attempt >= 5 || !"40001".equals(e.getSQLState())) {
                throw e;
              }
            }
          }
        }

        /**
         * SELECT ... FOR UPDATE SKIP LOCKED from the claim floor as the store does (see ClaimFloors), then the
         * claim UPDATE if anything was selected; no commit.
         */
        private List<Long> claim(int batch, long now) throws SQLException {
          List<Long> ids = new ArrayList<>(batch);
          for (DueRow row : floors.lockDue(QUEUE, 1, batch, (from, below, n) -> select(now, from, below, n),
              DueRow::runAfter)) {
            ids.add(row.id());
          }
          if (ids.isEmpty()) {
            return ids;
          }
          try (PreparedStatement ps = c.prepareStatement(JobSql.claim(dialect, ids.size()))) {
            ps.setString(1, "bench:" + source);
            ps.setBytes(2, sourceBytes);
            ps.setLong(3, now);
            IdLists.bind(ps, 4, ids);
            ps.executeUpdate();
          }
          return ids;
        }

        /** The locking SELECT of a claim, in the run_after band ClaimFloors asks for. */
        private List<DueRow> select(long now, Long from, Long below, int limit) throws SQLException {
          String sql = from != null ? selectDueFrom : below != null ? selectDueBelow : selectDue;
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            ps.setString(i++, QUEUE);
            ps.setInt(i++, 1);
            ps.setLong(i++, now);
            if (from != null || below != null) {
              ps.setLong(i++, from != null ? from : below);
            }
            ps.setInt(i, limit);
            List<DueRow> rows = new ArrayList<>(limit);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rows.add(new DueRow(rs.getLong(1), rs.getLong(8)));
                rs.getBytes(11);
              }
            }
            return rows;
          }
        }

        private List<Long> ack(List<Long> ids, long now) throws SQLException {
          try (PreparedStatement ps = c.prepareStatement(JobSql.ackSucceeded(dialect, ids.size(), false))) {
            ps.setLong(1, now);
            ps.setString(2, QUEUE);
            ps.setInt(3, 1);
            IdLists.bind(ps, 4, ids);
            ps.executeUpdate();
          }
          return ids;
        }

        @Override
        public void close() throws SQLException {
          c.close();
        }
      };
    }
  }
}
