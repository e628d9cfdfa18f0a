package dev.flipper.jdbc;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** MySQL 8 and MariaDB 10.6+ (both have SKIP LOCKED and LOCK IN SHARE MODE). Thread-safe. */
final class MysqlDialect implements Dialect {
  private static final ErrorCodes CODES =
      new ErrorCodes(
          Set.of(), // a lost or refused connection always has a connection SQLSTATE (08...)
          Set.of(
              1205, // ER_LOCK_WAIT_TIMEOUT
              1213), // ER_LOCK_DEADLOCK
          1062, // ER_DUP_ENTRY
          1060); // ER_DUP_FIELDNAME

  @Override
  public String name() {
    return "mysql";
  }

  @Override
  public String configureUrl(String url, Duration connectTimeout) {
    if (!url.toLowerCase(Locale.ROOT).startsWith("jdbc:mysql:")) {
      return url; // another driver: its properties differ, so leave the URL as the user wrote it
    }
    Map<String, String> defaults = new LinkedHashMap<>();
    defaults.put("connectTimeout", Long.toString(connectTimeout.toMillis()));
    defaults.put("characterEncoding", "UTF-8");
    defaults.put("createDatabaseIfNotExist", "true");
    // Speed: multi-row inserts from batches, statements parsed once on the client, no redundant
    // round
    // trips for session state the driver already knows. Client-side prepared statements cost
    // MariaDB
    // less CPU per job than server-side ones in JdbcQueueBenchmark (about 85 vs 100 us per full
    // cycle).
    defaults.put("rewriteBatchedStatements", "true");
    defaults.put("useServerPrepStmts", "false");
    defaults.put("cachePrepStmts", "true");
    defaults.put("prepStmtCacheSize", "250");
    defaults.put("prepStmtCacheSqlLimit", "2048");
    defaults.put("useLocalSessionState", "true");
    defaults.put("useLocalTransactionState", "true");
    defaults.put("cacheServerConfiguration", "true");
    defaults.put("cacheResultSetMetadata", "true");
    defaults.put("elideSetAutoCommits", "true");
    defaults.put("maintainTimeStats", "false");
    // A row lock is waited for at most 10 s, as on H2 (LOCK_TIMEOUT), instead of InnoDB's 50 s; the
    // time-out
    // is retried like a deadlock. Claims never wait (SKIP LOCKED), so only hot rows (a queue row
    // during
    // deleteQueue, the token version row) are ever waited for.
    defaults.put("sessionVariables", "innodb_lock_wait_timeout=10");
    return JdbcUrl.withDefaults(url, '?', '&', defaults);
  }

  @Override
  public String tableOptions() {
    return " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
  }

  @Override
  public boolean appliesLimitBeforeLocking() {
    return true;
  }

  @Override
  public String queueIndexOrder(boolean descending) {
    // The leading index columns are fixed by the WHERE. Naming them in the ORDER BY makes MariaDB
    // sort.
    return descending ? "run_after DESC, local_id DESC" : "run_after";
  }

  @Override
  public String jobsToLockById() {
    return jobsByPrimaryKey();
  }

  @Override
  public String jobsToClaim() {
    return jobsByQueueIndex();
  }

  @Override
  public String jobsByQueueIndex() {
    return "flipper_jobs FORCE INDEX (flipper_jobs_queue)";
  }

  @Override
  public boolean inProcess() {
    return false;
  }

  @Override
  public String tokenNames() {
    return "flipper_tokens_active FORCE INDEX (flipper_tokens_claim)";
  }

  @Override
  public String jobsByPrimaryKey() {
    return "flipper_jobs FORCE INDEX (PRIMARY)";
  }

  @Override
  public String queueRowLock() {
    return " LOCK IN SHARE MODE";
  }

  @Override
  public boolean insertSelectLocksQueueRow() {
    return true; // also under READ COMMITTED: the explicit LOCK IN SHARE MODE makes the read a
    // locking one
  }

  @Override
  public String asciiKeyColumn(int length) {
    // ascii + binary collation: 1024 characters are 1024 bytes, within InnoDB's 3072-byte key limit
    // (utf8mb4
    // would need 4096), and comparisons are byte order.
    return "VARCHAR(" + length + ") CHARACTER SET ascii COLLATE ascii_bin";
  }

  @Override
  public String generated(String expression) {
    return "AS (" + expression + ") STORED"; // MySQL 8 and MariaDB (STORED = PERSISTENT)
  }

  @Override
  public String runsInKeyOrder() {
    return "flipper_runs FORCE INDEX (PRIMARY)";
  }

  @Override
  public String runsCounted() {
    return "flipper_runs IGNORE INDEX (PRIMARY)";
  }

  @Override
  public boolean writersTakeTurns() {
    return false; // InnoDB's row locks and version-conditional writes are enough
  }

  @Override
  public ErrorCodes errorCodes() {
    return CODES;
  }

  @Override
  public Set<Integer> permanentOpenFailureCodes() {
    // ER_DBACCESS_DENIED_ERROR, ER_ACCESS_DENIED_ERROR, ER_BAD_DB_ERROR (unknown database)
    return Set.of(1044, 1045, 1049);
  }
}
