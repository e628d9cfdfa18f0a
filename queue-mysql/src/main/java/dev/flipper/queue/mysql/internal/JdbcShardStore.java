package dev.flipper.queue.mysql.internal;

import dev.flipper.jdbc.Dialect;
import dev.flipper.jdbc.JdbcUrl;
import dev.flipper.jdbc.internal.Database;
import dev.flipper.jdbc.internal.SchemaMigrator;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.MonitorCounts;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import dev.flipper.queue.spi.UniqueInsert;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ShardStore} over one MySQL/MariaDB/H2 database. Every method is one transaction (a few
 * for bounded bulk operations); rows are claimed with {@code SELECT ... FOR UPDATE SKIP LOCKED}, so
 * concurrent callers in any number of processes never claim, time out or delete the same job twice.
 * Body filters run in Java on pages of rows, never in SQL. Thread-safe.
 */
public final class JdbcShardStore implements ShardStore, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JdbcShardStore.class);

  /** Rows fetched per page when bodies are filtered in Java (bounds memory to page x body size). */
  static final int BODY_PAGE_ROWS = 100;

  /**
   * Rows changed per transaction by bulk admin operations (retry, delete), to bound lock counts.
   */
  static final int BULK_CHUNK = 1000;

  /** Bodies per INSERT statement stay under this, far below any max_allowed_packet in use. */
  static final long MAX_INSERT_BYTES = 4L << 20;

  /** Column sizes of claim_descriptor (characters) and claimed_by (UTF-8 bytes). */
  static final int MAX_CLAIM_LENGTH = 1000;

  private static final int PENDING = JobSql.PENDING;
  private static final int IN_PROGRESS = JobSql.IN_PROGRESS;
  private static final int FAILED = JobSql.FAILED;

  /** Appends or prepends text to the custom status, cut like every status to the column size. */
  private static final String APPEND_STATUS = JobSql.APPEND_STATUS;

  private static final String PREPEND_STATUS =
      "custom_status = SUBSTRING(CONCAT(?, custom_status), 1, " + CUSTOM_STATUS_MAX_CHARS + ")";

  /**
   * Failure ack and claim time-out in one statement. attempts_remaining is assigned last because
   * MySQL evaluates SET left to right with already-updated values (H2 uses the old ones); this way
   * both see the old count everywhere.
   */
  private static final String RETRY_OR_FAIL =
      "state = CASE WHEN attempts_remaining > 1 THEN "
          + PENDING
          + " ELSE "
          + FAILED
          + " END,"
          + " claim_descriptor = CASE WHEN attempts_remaining > 1 THEN NULL ELSE claim_descriptor END,"
          // FAILED for good releases the unique key (see JobSql.RELEASE_KEY).
          + " unique_key = CASE WHEN attempts_remaining > 1 OR unique_until > 0 THEN unique_key END,"
          + " claimed_by = NULL, updated_at = ?";

  private static final String ATTEMPTS_DOWN =
      " attempts_remaining = CASE WHEN attempts_remaining > 1 THEN attempts_remaining - 1 ELSE 0 END";

  /**
   * Changes rows this transaction has locked with {@link RowSelect#lock}, by primary key only.
   * Their state cannot have changed, and re-checking it would let the optimizer pick a state index
   * instead; a DELETE then locks every row it reads on the way (UPDATE skips rows that do not
   * match, DELETE does not), which deadlocks with concurrent monitors.
   */
  static final String LOCKED_IDS = "local_id IN ";

  private final JdbcShardConfig config;
  private final ShardHealth health;
  private final ShardErrors errors;
  private final Database db;
  private final SchemaMigrator migrator;
  private final Function<ShardStore, Set<String>> siblingQueues;
  private final ClaimFloors floors = new ClaimFloors();
  private volatile boolean dequeueOnly;
  private volatile boolean initialized;
  private volatile boolean copyQueuesOnInit;

  /**
   * @param siblingQueues given this shard, the queues of the store's other shards, created here
   *     when this shard is first reached after the store started serving (see {@link
   *     #copyQueuesOnInit(boolean)})
   */
  public JdbcShardStore(
      JdbcShardConfig config,
      PoolSettings settings,
      Function<ShardStore, Set<String>> siblingQueues) {
    this.config = config;
    this.dequeueOnly = config.dequeueOnly();
    this.health = new ShardHealth(settings.unhealthyCooldown());
    this.errors = new ShardErrors(config.name(), JdbcUrl.masked(config.url()), health);
    this.db =
        new Database(
            new Database.Settings(
                "flipper-shard-" + config.name(),
                config.url(),
                config.user(),
                config.password(),
                settings.poolSize(),
                settings.connectTimeout()),
            errors);
    this.migrator = JobSchema.migrator(db.dialect());
    this.siblingQueues = siblingQueues;
  }

  /** Pool settings shared by all shards of a store. */
  public record PoolSettings(int poolSize, Duration connectTimeout, Duration unhealthyCooldown) {}

  public JdbcShardConfig config() {
    return config.withDequeueOnly(dequeueOnly);
  }

  /** The shard's database (its pool), for tests and the benchmark. */
  public Database database() {
    return db;
  }

  public void setDequeueOnly(boolean value) {
    this.dequeueOnly = value;
  }

  public boolean isInitialized() {
    return initialized;
  }

  /**
   * When set, the first successful initialization also creates every queue of the sibling shards.
   */
  public void copyQueuesOnInit(boolean value) {
    this.copyQueuesOnInit = value;
  }

  /**
   * Migrates the schema (and copies sibling queues if asked) unless done already. Throws a
   * QueueException (SHARD_CONNECTION_FAILED if unreachable) on failure; a later call tries again.
   */
  public synchronized void initialize() {
    if (initialized) {
      return;
    }
    try {
      migrator.migrate(db.dataSource());
    } catch (SQLException e) {
      throw db.failure("schema migration", e);
    }
    if (copyQueuesOnInit) {
      Set<String> queues = siblingQueues.apply(this);
      Set<String> mine = listQueues();
      for (String queue : queues) {
        if (!mine.contains(queue)) {
          insertQueue(queue);
          log.info("created queue '{}' on new shard '{}'", queue, name());
        }
      }
    }
    initialized = true;
    health.markReachable();
  }

  /**
   * Runs one operation in a transaction: fails fast while the shard is marked unreachable, sets it
   * up first.
   */
  private <T> T run(String operation, String queue, Database.SqlWork<T> work) {
    String where = where(operation, queue);
    errors.checkAvailable(where);
    if (!initialized) {
      initialize();
    }
    T result = db.inTransaction(where, work);
    health.markReachable();
    return result;
  }

  private static String where(String operation, String queue) {
    return operation + (queue == null ? "" : " on queue '" + queue + "'");
  }

  @Override
  public String name() {
    return config.name();
  }

  @Override
  public boolean dequeueOnly() {
    return dequeueOnly;
  }

  @Override
  public boolean healthy() {
    return health.healthy();
  }

  // ----------------------------------------------------------------------------------------------
  // queues

  @Override
  public void createQueue(String queue) {
    run(
        "createQueue",
        queue,
        c -> {
          insertQueue(c, queue);
          return null;
        });
  }

  private void insertQueue(String queue) {
    db.inTransaction(
        where("createQueue", queue),
        c -> {
          insertQueue(c, queue);
          return null;
        });
  }

  private static void insertQueue(Connection c, String queue) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("INSERT IGNORE INTO flipper_queues (name, created_at) VALUES (?, ?)")) {
      ps.setString(1, queue);
      ps.setLong(2, System.currentTimeMillis());
      ps.executeUpdate();
    }
  }

  @Override
  public void deleteQueue(String queue) {
    run(
        "deleteQueue",
        queue,
        c -> {
          // Deleting the queue row first waits for enqueues holding it shared, and makes later ones
          // fail.
          try (PreparedStatement ps =
              c.prepareStatement("DELETE FROM flipper_queues WHERE name = ?")) {
            ps.setString(1, queue);
            ps.executeUpdate();
          }
          try (PreparedStatement ps =
              c.prepareStatement("DELETE FROM flipper_jobs WHERE queue_name = ?")) {
            ps.setString(1, queue);
            ps.executeUpdate();
          }
          return null;
        });
  }

  @Override
  public Set<String> queueNames() {
    return run("queueNames", null, JdbcShardStore::selectQueueNames);
  }

  /** Without the lazy set-up, for use while setting up. */
  private Set<String> listQueues() {
    return db.inTransaction("queueNames", JdbcShardStore::selectQueueNames);
  }

  private static Set<String> selectQueueNames(Connection c) throws SQLException {
    Set<String> names = new LinkedHashSet<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM flipper_queues ORDER BY name")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    return names;
  }

  @Override
  public boolean queueExists(String queue) {
    return run("queueExists", queue, c -> queueExists(c, queue));
  }

  private static boolean queueExists(Connection c, String queue) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM flipper_queues WHERE name = ?")) {
      ps.setString(1, queue);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** An empty result is ambiguous: an empty queue, or none. Only then is the queue looked up. */
  private static void requireQueue(Connection c, String queue) throws SQLException {
    if (!queueExists(c, queue)) {
      throw QueueException.queueNotFound(queue);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // enqueue

  @Override
  public List<Long> enqueue(String queue, List<NewJobRecord> jobs) {
    if (jobs.isEmpty()) {
      return List.of();
    }
    List<Long> created = run("enqueue", queue, c -> insertJobs(c, queue, jobs));
    floors.lower(queue, jobs, NewJobRecord::priority, NewJobRecord::runAfterMillis);
    return created;
  }

  @Override
  public List<UniqueInsert> enqueueUnique(String queue, List<NewJobRecord> jobs) {
    List<UniqueInsert> results = new ArrayList<>(jobs.size());
    for (NewJobRecord job : jobs) {
      // One transaction per job: a duplicate key (a concurrent enqueue of the key won) rolls back
      // and runs it again, which then finds the winner.
      results.add(run("enqueue", queue, c -> insertUnlessHeld(c, queue, job)));
    }
    floors.lower(queue, jobs, NewJobRecord::priority, NewJobRecord::runAfterMillis);
    return results;
  }

  private UniqueInsert insertUnlessHeld(Connection c, String queue, NewJobRecord job)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(JobSql.RELEASE_ENDED_WINDOW)) {
      ps.setString(1, queue);
      ps.setString(2, job.uniqueKey());
      ps.setLong(3, job.createdAtMillis());
      ps.executeUpdate();
    }
    try (PreparedStatement ps = c.prepareStatement(JobSql.KEY_HOLDER)) {
      ps.setString(1, queue);
      ps.setString(2, job.uniqueKey());
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          return new UniqueInsert(new JobRef(rs.getInt(1), rs.getLong(2)), true);
        }
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            JobSql.INSERT_KEYED_JOB_IF_QUEUE + db.dialect().queueRowLock(),
            Statement.RETURN_GENERATED_KEYS)) {
      bindJob(ps, queue, job);
      ps.setString(10, job.uniqueKey());
      ps.setLong(11, job.uniqueUntilMillis());
      ps.setString(12, queue);
      if (ps.executeUpdate() == 0) {
        throw QueueException.queueNotFound(queue);
      }
      try (ResultSet keys = ps.getGeneratedKeys()) {
        if (!keys.next()) {
          throw new SQLException(
              "inserted a job but the driver returned no generated id (indicates a driver or "
                  + "configuration bug)");
        }
        return new UniqueInsert(new JobRef(job.priority(), keys.getLong(1)), false);
      }
    }
  }

  /**
   * Inserts the jobs with the caller's connection, inside the caller's transaction: they exist if
   * and only if that transaction commits. The connection must reach this shard's database.
   * QUEUE_NOT_FOUND if the queue does not exist there (the caller's transaction is left as it was,
   * for it to roll back or go on).
   */
  public List<Long> enqueueInTransaction(Connection c, String queue, List<NewJobRecord> jobs) {
    if (!initialized) {
      initialize(); // the schema, through this shard's own pool
    }
    try {
      List<Long> created = insertJobs(c, queue, jobs);
      floors.lower(
          queue, jobs, NewJobRecord::priority, NewJobRecord::runAfterMillis); // only a hint
      return created;
    } catch (SQLException e) {
      throw new QueueException(
          dev.flipper.queue.ErrorCode.UNKNOWN,
          "enqueue to queue '"
              + queue
              + "' on shard '"
              + name()
              + "' in the caller's transaction failed: "
              + e.getMessage(),
          e);
    }
  }

  private List<Long> insertJobs(Connection c, String queue, List<NewJobRecord> jobs)
      throws SQLException {
    if (jobs.size() == 1 && db.dialect().insertSelectLocksQueueRow()) {
      return List.of(insertJob(c, queue, jobs.get(0)));
    }
    // Holding the queue row makes a concurrent deleteQueue wait, so no job can outlive its queue.
    try (PreparedStatement ps =
        c.prepareStatement(JobSql.QUEUE_ROW + db.dialect().queueRowLock())) {
      ps.setString(1, queue);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw QueueException.queueNotFound(queue);
        }
      }
    }
    List<Long> ids = new ArrayList<>(jobs.size());
    try (PreparedStatement ps =
        c.prepareStatement(JobSql.INSERT_JOB, Statement.RETURN_GENERATED_KEYS)) {
      long batchBytes = 0;
      int batchRows = 0;
      for (NewJobRecord job : jobs) {
        long size = job.body().length + 256L;
        if (batchRows > 0 && batchBytes + size > MAX_INSERT_BYTES) {
          executeInsert(ps, batchRows, ids);
          batchBytes = 0;
          batchRows = 0;
        }
        bindJob(ps, queue, job);
        ps.addBatch();
        batchBytes += size;
        batchRows++;
      }
      executeInsert(ps, batchRows, ids);
    }
    return ids;
  }

  /**
   * One job with one statement: the insert reads and holds the queue row itself (see insertJobs).
   */
  private long insertJob(Connection c, String queue, NewJobRecord job) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            JobSql.INSERT_JOB_IF_QUEUE + db.dialect().queueRowLock(),
            Statement.RETURN_GENERATED_KEYS)) {
      bindJob(ps, queue, job);
      ps.setString(10, queue);
      if (ps.executeUpdate() == 0) {
        throw QueueException.queueNotFound(queue);
      }
      try (ResultSet keys = ps.getGeneratedKeys()) {
        if (!keys.next()) {
          throw new SQLException(
              "inserted a job but the driver returned no generated id (indicates a driver or "
                  + "configuration bug)");
        }
        return keys.getLong(1);
      }
    }
  }

  private static void bindJob(PreparedStatement ps, String queue, NewJobRecord job)
      throws SQLException {
    ps.setString(1, queue);
    ps.setInt(2, job.priority());
    ps.setLong(3, job.runAfterMillis());
    ps.setLong(4, job.createdAtMillis());
    ps.setLong(5, job.createdAtMillis());
    ps.setInt(6, job.attemptsAllowed());
    ps.setInt(7, job.attemptsAllowed());
    ps.setString(8, job.customStatus() == null ? "" : job.customStatus());
    // As a stream, not setBytes: Connector/J's client-side statements write bytes as hex text when
    // the
    // connection's charset is multi-byte (utf8mb4), two characters per byte and most of the
    // server's CPU in
    // a batch enqueue; a stream is written with backslash escapes, about one character per byte.
    ps.setBinaryStream(9, new ByteArrayInputStream(job.body()), job.body().length);
  }

  /** One multi-row INSERT (the driver rewrites the batch) and its generated ids, in order. */
  private static void executeInsert(PreparedStatement ps, int rows, List<Long> ids)
      throws SQLException {
    ps.executeBatch();
    int before = ids.size();
    try (ResultSet keys = ps.getGeneratedKeys()) {
      while (keys.next()) {
        ids.add(keys.getLong(1));
      }
    }
    if (ids.size() - before != rows) {
      throw new SQLException(
          "inserted "
              + rows
              + " jobs but the driver returned "
              + (ids.size() - before)
              + " generated ids (indicates a driver or configuration bug)");
    }
  }

  // ------------------------------------------------------------------------------------------
  // dequeueing

  @Override
  public List<StoredJob> claim(String queue, int priority, int limit, Claim claim) {
    if (limit <= 0) {
      return List.of();
    }
    byte[] source =
        claim.source() == null ? new byte[0] : claim.source().getBytes(StandardCharsets.UTF_8);
    if (claim.descriptor().length() > MAX_CLAIM_LENGTH || source.length > MAX_CLAIM_LENGTH) {
      throw QueueException.invalid(
          "claim descriptor '"
              + claim.descriptor()
              + "' or source is longer than "
              + MAX_CLAIM_LENGTH
              + " characters, the most a JDBC shard stores; use a shorter source");
    }
    return run(
        "claim",
        queue,
        c -> {
          List<StoredJob> due = lockDue(c, queue, priority, claim.nowMillis(), limit);
          if (due.isEmpty()) {
            return due; // nothing to write: skip the UPDATE round trip
          }
          List<Long> ids = new ArrayList<>(due.size());
          due.forEach(j -> ids.add(j.localId()));
          for (List<Long> chunk : IdLists.chunks(ids)) {
            try (PreparedStatement ps =
                c.prepareStatement(JobSql.claim(db.dialect(), chunk.size()))) {
              ps.setString(1, claim.descriptor());
              ps.setBytes(2, source);
              ps.setLong(3, claim.nowMillis());
              IdLists.bind(ps, 4, chunk);
              ps.executeUpdate();
            }
          }
          List<StoredJob> claimed = new ArrayList<>(due.size());
          due.forEach(j -> claimed.add(JobRows.claimed(j, claim.descriptor(), claim.nowMillis())));
          return claimed;
        });
  }

  /**
   * Locks up to {@code limit} due jobs, earliest first. On MySQL/MariaDB the scan starts at the
   * queue's {@link ClaimFloors floor} when there is one, and goes below it only if the rows from
   * there on are too few.
   */
  private List<StoredJob> lockDue(Connection c, String queue, int priority, long now, int limit)
      throws SQLException {
    Dialect dialect = db.dialect();
    RowSelect.RowReader<StoredJob> reader = r -> JobRows.read(r, true);
    if (!dialect.appliesLimitBeforeLocking()) {
      return JobSql.due(dialect, queue, priority, now).lock(c, dialect, limit, reader);
    }
    return floors.lockDue(
        queue,
        priority,
        limit,
        (from, below, n) ->
            JobSql.dueBand(dialect, queue, priority, now, from, below).lock(c, dialect, n, reader),
        StoredJob::runAfterMillis);
  }

  @Override
  public List<StoredJob> peek(String queue, int priority, int limit, long nowMillis) {
    if (limit <= 0) {
      return List.of();
    }
    return run(
        "peek",
        queue,
        c ->
            JobSql.due(db.dialect(), queue, priority, nowMillis)
                .read(c, limit, r -> JobRows.read(r, true)));
  }

  // ------------------------------------------------------------------------------------------------ acks

  /** Acks that can share one statement. */
  private record AckGroup(int priority, String appendCustomStatus, long retryDelayMillis) {}

  private static Map<AckGroup, List<Long>> group(List<AckRecord> acks, boolean byDelay) {
    Map<AckGroup, List<Long>> groups = new LinkedHashMap<>();
    for (AckRecord ack : acks) {
      String append = ack.appendCustomStatus() == null ? "" : ack.appendCustomStatus();
      AckGroup key =
          new AckGroup(ack.job().priority(), append, byDelay ? ack.retryDelayMillis() : 0);
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(ack.job().localId());
    }
    return groups;
  }

  @Override
  public int ackSucceeded(String queue, List<AckRecord> acks, long nowMillis) {
    if (acks.isEmpty()) {
      return 0;
    }
    return run(
        "ackSucceeded",
        queue,
        c -> {
          int changed = 0;
          for (Map.Entry<AckGroup, List<Long>> group : group(acks, false).entrySet()) {
            boolean append = !group.getKey().appendCustomStatus().isEmpty();
            for (List<Long> chunk : IdLists.chunks(group.getValue())) {
              try (PreparedStatement ps =
                  c.prepareStatement(JobSql.ackSucceeded(db.dialect(), chunk.size(), append))) {
                int i = 1;
                ps.setLong(i++, nowMillis);
                if (append) {
                  ps.setString(i++, group.getKey().appendCustomStatus());
                }
                ps.setString(i++, queue);
                ps.setInt(i++, group.getKey().priority());
                IdLists.bind(ps, i, chunk);
                changed += ps.executeUpdate();
              }
            }
          }
          if (changed == 0) {
            requireQueue(c, queue);
          }
          return changed;
        });
  }

  @Override
  public int ackFailed(String queue, List<AckRecord> acks, long nowMillis) {
    if (acks.isEmpty()) {
      return 0;
    }
    int failed =
        run(
            "ackFailed",
            queue,
            c -> {
              int changed = 0;
              for (Map.Entry<AckGroup, List<Long>> group : group(acks, true).entrySet()) {
                boolean append = !group.getKey().appendCustomStatus().isEmpty();
                for (List<Long> chunk : IdLists.chunks(group.getValue())) {
                  String sql =
                      "UPDATE "
                          + db.dialect().jobsByPrimaryKey()
                          + " SET "
                          + RETRY_OR_FAIL
                          + ", run_after = CASE WHEN attempts_remaining > 1 THEN ? ELSE run_after END"
                          + (append ? ", " + APPEND_STATUS : "")
                          + ","
                          + ATTEMPTS_DOWN
                          + " WHERE queue_name = ? AND priority = ? AND state = "
                          + IN_PROGRESS
                          + " AND local_id IN "
                          + IdLists.placeholders(chunk.size());
                  try (PreparedStatement ps = c.prepareStatement(sql)) {
                    int i = 1;
                    ps.setLong(i++, nowMillis);
                    ps.setLong(i++, nowMillis + group.getKey().retryDelayMillis());
                    if (append) {
                      ps.setString(i++, group.getKey().appendCustomStatus());
                    }
                    ps.setString(i++, queue);
                    ps.setInt(i++, group.getKey().priority());
                    IdLists.bind(ps, i, chunk);
                    changed += ps.executeUpdate();
                  }
                }
              }
              if (changed == 0) {
                requireQueue(c, queue);
              }
              return changed;
            });
    // After the commit: a claim in between must not raise the floor above the retried jobs again.
    floors.lower(queue, acks, a -> a.job().priority(), a -> nowMillis + a.retryDelayMillis());
    return failed;
  }

  @Override
  public boolean checkpoint(
      String queue, String source, CheckpointRecord checkpoint, long nowMillis) {
    StringBuilder sql =
        new StringBuilder("UPDATE flipper_jobs SET state = ?, run_after = ?, updated_at = ?");
    if (checkpoint.newBody() != null) {
      sql.append(", body = ?");
    }
    if (checkpoint.attemptsAllowed() != null) {
      sql.append(", attempts_allowed = ?, attempts_remaining = ?");
    }
    if (checkpoint.prependCustomStatus() != null && !checkpoint.prependCustomStatus().isEmpty()) {
      sql.append(", ").append(PREPEND_STATUS);
    }
    if (checkpoint.moveToPending()) {
      sql.append(", claim_descriptor = NULL, claimed_by = NULL");
    }
    sql.append(" WHERE local_id = ? AND queue_name = ? AND priority = ? AND state = ")
        .append(IN_PROGRESS)
        .append(" AND claimed_by = ?");
    byte[] owner = source == null ? new byte[0] : source.getBytes(StandardCharsets.UTF_8);
    boolean done =
        run(
            "checkpoint",
            queue,
            c -> {
              int changed;
              try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                int i = 1;
                ps.setInt(i++, checkpoint.moveToPending() ? PENDING : IN_PROGRESS);
                ps.setLong(i++, checkpoint.runAfterMillis());
                ps.setLong(i++, nowMillis);
                if (checkpoint.newBody() != null) {
                  ps.setBytes(i++, checkpoint.newBody());
                }
                if (checkpoint.attemptsAllowed() != null) {
                  ps.setInt(i++, checkpoint.attemptsAllowed());
                  ps.setInt(i++, checkpoint.attemptsAllowed());
                }
                if (checkpoint.prependCustomStatus() != null
                    && !checkpoint.prependCustomStatus().isEmpty()) {
                  ps.setString(i++, checkpoint.prependCustomStatus());
                }
                ps.setLong(i++, checkpoint.job().localId());
                ps.setString(i++, queue);
                ps.setInt(i++, checkpoint.job().priority());
                ps.setBytes(i, owner);
                changed = ps.executeUpdate();
              }
              if (changed == 0) {
                requireQueue(c, queue);
              }
              return changed > 0;
            });
    if (done && checkpoint.moveToPending()) {
      floors.lower(queue, checkpoint.job().priority(), checkpoint.runAfterMillis());
    }
    return done;
  }

  // -------------------------------------------------------------------------------------------
  // inspecting

  @Override
  public Optional<StoredJob> lookup(String queue, JobRef job, boolean includeBody) {
    String sql =
        "SELECT "
            + (includeBody ? JobRows.COLUMNS_WITH_BODY : JobRows.COLUMNS)
            + " FROM flipper_jobs WHERE local_id = ? AND queue_name = ? AND priority = ?";
    return run(
        "lookup",
        queue,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, job.localId());
            ps.setString(2, queue);
            ps.setInt(3, job.priority());
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next()
                  ? Optional.of(JobRows.read(rs, includeBody))
                  : Optional.<StoredJob>empty();
            }
          }
        });
  }

  @Override
  public int count(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      int cap) {
    if (cap <= 0) {
      return 0;
    }
    if (!filter.matchesAll()) {
      return countFiltered(queue, priority, state, future, filter, nowMillis, cap);
    }
    String sql =
        "SELECT COUNT(*) FROM (SELECT 1 FROM flipper_jobs WHERE queue_name = ? AND priority = ?"
            + " AND state = ? AND run_after "
            + (future ? ">" : "<=")
            + " ? LIMIT ?) capped";
    return run(
        "count",
        queue,
        c -> {
          int count;
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, queue);
            ps.setInt(2, priority);
            ps.setInt(3, state.code());
            ps.setLong(4, nowMillis);
            ps.setInt(5, cap);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              count = rs.getInt(1);
            }
          }
          if (count == 0) {
            requireQueue(c, queue);
          }
          return count;
        });
  }

  @Override
  public List<StoredJob> scan(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      ScanBound after,
      int limit) {
    if (limit <= 0) {
      return List.of();
    }
    if (!filter.matchesAll()) {
      return scanFiltered(queue, priority, state, future, filter, nowMillis, after, limit);
    }
    return run(
        "scan",
        queue,
        c -> {
          List<StoredJob> jobs =
              readPage(
                  c,
                  JobRows.COLUMNS,
                  queue,
                  priority,
                  state,
                  future,
                  nowMillis,
                  after,
                  limit,
                  r -> JobRows.read(r, false));
          if (jobs.isEmpty()) {
            requireQueue(c, queue);
          }
          return jobs;
        });
  }

  /*
   * Body-filtered reads: one short transaction per page of BODY_PAGE_ROWS rows, the next page read from the
   * last row's key, and the filter evaluated between transactions, with no connection held (a slow regex
   * must not take the pool). Linear in the jobs read; the filter's budgets bound the time.
   */

  private int countFiltered(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      int cap) {
    int matches = 0;
    ScanBound bound = ScanBound.START;
    while (matches < cap) {
      ScanBound from = bound;
      List<PageRow> page =
          run(
              "count",
              queue,
              c ->
                  readPage(
                      c,
                      PAGE_ROW_COLUMNS,
                      queue,
                      priority,
                      state,
                      future,
                      nowMillis,
                      from,
                      BODY_PAGE_ROWS,
                      JdbcShardStore::readPageRow));
      for (PageRow row : page) {
        if (matches < cap && filter.matches(row.body())) {
          matches++;
        }
      }
      if (page.size() < BODY_PAGE_ROWS) {
        break;
      }
      bound = page.get(page.size() - 1).bound();
    }
    if (matches == 0) {
      requireQueueExists(queue);
    }
    return matches;
  }

  private List<StoredJob> scanFiltered(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      ScanBound after,
      int limit) {
    List<StoredJob> jobs = new ArrayList<>();
    ScanBound bound = after;
    while (jobs.size() < limit) {
      ScanBound from = bound;
      List<StoredJob> page =
          run(
              "scan",
              queue,
              c ->
                  readPage(
                      c,
                      JobRows.COLUMNS_WITH_BODY,
                      queue,
                      priority,
                      state,
                      future,
                      nowMillis,
                      from,
                      BODY_PAGE_ROWS,
                      r -> JobRows.read(r, true)));
      for (StoredJob job : page) {
        if (jobs.size() < limit && filter.matches(job.body())) {
          jobs.add(withoutBody(job));
        }
      }
      if (page.size() < BODY_PAGE_ROWS) {
        break;
      }
      StoredJob last = page.get(page.size() - 1);
      bound = new ScanBound(last.runAfterMillis(), last.localId());
    }
    if (jobs.isEmpty()) {
      requireQueueExists(queue);
    }
    return jobs;
  }

  /** Up to {@code rows} jobs in scan order strictly after the bound (see {@link JobSql#page}). */
  private <T> List<T> readPage(
      Connection c,
      String columns,
      String queue,
      int priority,
      JobState state,
      boolean future,
      long now,
      ScanBound bound,
      int rows,
      RowSelect.RowReader<T> reader)
      throws SQLException {
    List<T> page = new ArrayList<>();
    for (RowSelect part :
        JobSql.page(db.dialect(), columns, queue, priority, state.code(), future, now, bound)) {
      page.addAll(part.read(c, rows - page.size(), reader));
      if (page.size() >= rows) {
        break;
      }
    }
    return page;
  }

  private static StoredJob withoutBody(StoredJob j) {
    return new StoredJob(
        j.localId(),
        j.priority(),
        j.state(),
        j.attemptsAllowed(),
        j.attemptsRemaining(),
        j.customStatus(),
        j.createdAtMillis(),
        j.runAfterMillis(),
        j.updatedAtMillis(),
        j.claimDescriptor(),
        null);
  }

  /** A row read for filtering in Java. */
  private record PageRow(long localId, long runAfter, byte[] body) {
    ScanBound bound() {
      return new ScanBound(runAfter, localId);
    }
  }

  private static PageRow readPageRow(ResultSet rs) throws SQLException {
    return new PageRow(rs.getLong(1), rs.getLong(2), rs.getBytes(3));
  }

  private static final String PAGE_ROW_COLUMNS = "local_id, run_after, body";

  // ----------------------------------------------------------------------------------------------
  // admin

  @Override
  public int retryFailed(
      String queue,
      int priority,
      int attemptsToAllow,
      long runAfterMillis,
      int limit,
      long nowMillis) {
    int total = 0;
    while (total < limit) {
      int chunk = Math.min(BULK_CHUNK, limit - total);
      int moved =
          run(
              "retryFailed",
              queue,
              c -> {
                List<Long> ids = selectIds(c, queue, priority, FAILED, chunk);
                if (!ids.isEmpty()) {
                  String sql =
                      "UPDATE flipper_jobs SET state = "
                          + PENDING
                          + ", attempts_remaining = ?, run_after = ?,"
                          + " updated_at = ?, claim_descriptor = NULL, claimed_by = NULL WHERE "
                          + LOCKED_IDS
                          + IdLists.placeholders(ids.size());
                  try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.setInt(1, attemptsToAllow);
                    ps.setLong(2, runAfterMillis);
                    ps.setLong(3, nowMillis);
                    IdLists.bind(ps, 4, ids);
                    return ps.executeUpdate();
                  }
                }
                return 0;
              });
      total += moved;
      if (moved < chunk) {
        break;
      }
    }
    floors.lower(queue, priority, runAfterMillis);
    if (total == 0) {
      requireQueueExists(queue);
    }
    return total;
  }

  @Override
  public boolean deleteJob(String queue, JobRef job) {
    return run(
        "deleteJob",
        queue,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "DELETE FROM flipper_jobs WHERE local_id = ? AND queue_name = ? AND priority = ?")) {
            ps.setLong(1, job.localId());
            ps.setString(2, queue);
            ps.setInt(3, job.priority());
            return ps.executeUpdate() == 1;
          }
        });
  }

  @Override
  public boolean retryJob(
      String queue, JobRef job, int attemptsToAllow, long runAfterMillis, long nowMillis) {
    // One conditional UPDATE: a job that stopped being FAILED in between (deleted, retried) is not
    // touched.
    boolean retried =
        run(
            "retryJob",
            queue,
            c -> {
              try (PreparedStatement ps =
                  c.prepareStatement(
                      "UPDATE flipper_jobs SET state = "
                          + PENDING
                          + ", attempts_remaining = ?, run_after = ?, updated_at = ?, claim_descriptor = NULL, claimed_by = NULL"
                          + " WHERE local_id = ? AND queue_name = ? AND priority = ? AND state = "
                          + FAILED)) {
                ps.setInt(1, attemptsToAllow);
                ps.setLong(2, runAfterMillis);
                ps.setLong(3, nowMillis);
                ps.setLong(4, job.localId());
                ps.setString(5, queue);
                ps.setInt(6, job.priority());
                return ps.executeUpdate() == 1;
              }
            });
    if (retried) {
      floors.lower(queue, job.priority(), runAfterMillis);
    }
    return retried;
  }

  @Override
  public void setPaused(String queue, boolean paused) {
    run(
        paused ? "pause" : "resume",
        queue,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("UPDATE flipper_queues SET paused_at = ? WHERE name = ?")) {
            if (paused) {
              ps.setLong(1, System.currentTimeMillis());
            } else {
              ps.setNull(1, java.sql.Types.BIGINT);
            }
            ps.setString(2, queue);
            ps.executeUpdate();
          }
          return null;
        });
  }

  @Override
  public Set<String> pausedQueues() {
    return run(
        "pausedQueues",
        null,
        c -> {
          Set<String> names = new LinkedHashSet<>();
          try (Statement st = c.createStatement();
              ResultSet rs =
                  st.executeQuery(
                      "SELECT name FROM flipper_queues WHERE paused_at IS NOT NULL ORDER BY name")) {
            while (rs.next()) {
              names.add(rs.getString(1));
            }
          }
          return names;
        });
  }

  @Override
  public int deleteJobs(String queue, int priority, JobState state, BodyFilter filter, int limit) {
    int total =
        filter.matchesAll()
            ? deleteUnfiltered(queue, priority, state, limit)
            : deleteFiltered(queue, priority, state, filter, limit);
    if (total == 0) {
      requireQueueExists(queue);
    }
    return total;
  }

  private int deleteUnfiltered(String queue, int priority, JobState state, int limit) {
    int total = 0;
    while (total < limit) {
      int chunk = Math.min(BULK_CHUNK, limit - total);
      int deleted =
          run(
              "deleteJobs",
              queue,
              c -> deleteIds(c, selectIds(c, queue, priority, state.code(), chunk)));
      total += deleted;
      if (deleted < chunk) {
        break;
      }
    }
    return total;
  }

  /**
   * Reads a page (one short transaction), keeps the rows whose body matches with no connection
   * held, then deletes those still in the state (another transaction: a job claimed meanwhile
   * stays).
   */
  private int deleteFiltered(
      String queue, int priority, JobState state, BodyFilter filter, int limit) {
    int total = 0;
    ScanBound bound = ScanBound.START;
    while (total < limit) {
      ScanBound from = bound;
      List<PageRow> page =
          run(
              "deleteJobs",
              queue,
              c ->
                  readPage(
                      c,
                      PAGE_ROW_COLUMNS,
                      queue,
                      priority,
                      state,
                      false,
                      Long.MAX_VALUE,
                      from,
                      BODY_PAGE_ROWS,
                      JdbcShardStore::readPageRow));
      List<Long> matches = new ArrayList<>();
      for (PageRow row : page) {
        if (total + matches.size() < limit && filter.matches(row.body())) {
          matches.add(row.localId());
        }
      }
      if (!matches.isEmpty()) {
        total +=
            run("deleteJobs", queue, c -> deleteIdsInState(c, queue, priority, state, matches));
      }
      if (page.size() < BODY_PAGE_ROWS) {
        break;
      }
      bound = page.get(page.size() - 1).bound();
    }
    return total;
  }

  /** Deletes the jobs among {@code ids} that are still of the queue, priority and state. */
  private static int deleteIdsInState(
      Connection c, String queue, int priority, JobState state, List<Long> ids)
      throws SQLException {
    int deleted = 0;
    for (List<Long> chunk : IdLists.chunks(ids)) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "DELETE FROM flipper_jobs WHERE "
                  + LOCKED_IDS
                  + IdLists.placeholders(chunk.size())
                  + " AND queue_name = ? AND priority = ? AND state = ?")) {
        int next = IdLists.bind(ps, 1, chunk);
        ps.setString(next, queue);
        ps.setInt(next + 1, priority);
        ps.setInt(next + 2, state.code());
        deleted += ps.executeUpdate();
      }
    }
    return deleted;
  }

  private void requireQueueExists(String queue) {
    if (!queueExists(queue)) {
      throw QueueException.queueNotFound(queue);
    }
  }

  /** Locks up to {@code limit} jobs of one queue, priority and state, oldest run-after first. */
  private List<Long> selectIds(Connection c, String queue, int priority, int state, int limit)
      throws SQLException {
    return JobSql.inState(db.dialect(), queue, priority, state)
        .lock(c, db.dialect(), limit, rs -> rs.getLong(1));
  }

  /** Deletes rows this transaction has locked; returns how many went. */
  private static int deleteIds(Connection c, List<Long> ids) throws SQLException {
    int deleted = 0;
    for (List<Long> chunk : IdLists.chunks(ids)) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "DELETE FROM flipper_jobs WHERE "
                  + LOCKED_IDS
                  + IdLists.placeholders(chunk.size()))) {
        IdLists.bind(ps, 1, chunk);
        deleted += ps.executeUpdate();
      }
    }
    return deleted;
  }

  // --------------------------------------------------------------------------------------------
  // monitor

  @Override
  public MonitorCounts timeOutClaims(long claimedBefore, int maxJobs, long nowMillis) {
    if (maxJobs <= 0) {
      return MonitorCounts.NONE;
    }
    MonitorCounts counts =
        run(
            "timeOutClaims",
            null,
            c -> {
              List<Long> ids = new ArrayList<>();
              Map<String, Integer> retried = new HashMap<>();
              Map<String, Integer> failed = new HashMap<>();
              record Expired(long id, String queue, int attemptsRemaining) {}
              List<Expired> expired =
                  JobSql.updatedBefore(
                          "local_id, queue_name, attempts_remaining", IN_PROGRESS, claimedBefore)
                      .lock(
                          c,
                          db.dialect(),
                          maxJobs,
                          rs -> new Expired(rs.getLong(1), rs.getString(2), rs.getInt(3)));
              for (Expired job : expired) {
                ids.add(job.id());
                (job.attemptsRemaining() > 1 ? retried : failed)
                    .merge(job.queue(), 1, Integer::sum);
              }
              int changed = 0;
              for (List<Long> chunk : IdLists.chunks(ids)) {
                // Runnable now: LEAST keeps the place in line of a job that was already due.
                String sql =
                    "UPDATE flipper_jobs SET "
                        + RETRY_OR_FAIL
                        + ", run_after = CASE WHEN attempts_remaining > 1 THEN LEAST(run_after, ?) ELSE run_after END,"
                        + ATTEMPTS_DOWN
                        + " WHERE "
                        + LOCKED_IDS
                        + IdLists.placeholders(chunk.size());
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                  ps.setLong(1, nowMillis);
                  ps.setLong(2, nowMillis);
                  IdLists.bind(ps, 3, chunk);
                  changed += ps.executeUpdate();
                }
              }
              if (changed != ids.size()) {
                throw new SQLException(
                    "claim time-out locked "
                        + ids.size()
                        + " jobs but changed "
                        + changed
                        + " (indicates a bug); ids "
                        + ids);
              }
              return new MonitorCounts(retried, failed);
            });
    floors
        .forgetAll(); // timed-out jobs keep their run_after, so they may be due far below any floor
    return counts;
  }

  @Override
  public Map<String, Integer> deleteFinished(JobState state, long enteredBefore, int maxJobs) {
    if (!state.isFinished()) {
      throw QueueException.invalid("deleteFinished takes SUCCEEDED or FAILED, not " + state);
    }
    if (maxJobs <= 0) {
      return Map.of();
    }
    return run(
        "deleteFinished",
        null,
        c -> {
          List<Long> ids = new ArrayList<>();
          Map<String, Integer> perQueue = new HashMap<>();
          record Finished(long id, String queue) {}
          List<Finished> finished =
              JobSql.updatedBefore("local_id, queue_name", state.code(), enteredBefore)
                  .lock(
                      c, db.dialect(), maxJobs, rs -> new Finished(rs.getLong(1), rs.getString(2)));
          for (Finished job : finished) {
            ids.add(job.id());
            perQueue.merge(job.queue(), 1, Integer::sum);
          }
          int deleted = deleteIds(c, ids);
          if (deleted != ids.size()) {
            throw new SQLException(
                "garbage collection locked "
                    + ids.size()
                    + " jobs but deleted "
                    + deleted
                    + " (indicates a bug)");
          }
          return Map.copyOf(perQueue);
        });
  }

  @Override
  public void close() {
    db.close();
  }

  @Override
  public String toString() {
    return "JdbcShardStore["
        + name()
        + ", "
        + JdbcUrl.masked(config.url())
        + (dequeueOnly ? ", dequeue-only" : "")
        + "]";
  }
}
