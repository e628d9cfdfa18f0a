package dev.flipper.jdbc;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** H2 2.x in MySQL mode, the embedded default. Thread-safe. */
final class H2Dialect implements Dialect {
  // org.h2.api.ErrorCode values, copied so that this class needs no H2 on the compile path.
  private static final ErrorCodes CODES =
      new ErrorCodes(
          Set.of(
              90067, // connection broken
              90020, // database may be already in use
              90098, // database has been closed
              90121, // database called at VM shutdown
              90135), // database is in exclusive mode
          Set.of(
              40001, // DEADLOCK_1
              50200, // LOCK_TIMEOUT_1
              90131), // CONCURRENT_UPDATE_1
          23505, // DUPLICATE_KEY_1
          42121); // DUPLICATE_COLUMN_NAME_1

  @Override
  public String name() {
    return "h2";
  }

  @Override
  public String configureUrl(String url, Duration connectTimeout) {
    // DB_CLOSE_ON_EXIT=FALSE is not added: H2 refuses it together with AUTO_SERVER=TRUE.
    Map<String, String> defaults = new LinkedHashMap<>();
    defaults.put("MODE", "MySQL");
    // H2 waits only 1 s for a row lock by default; concurrent enqueues of one queue need longer.
    defaults.put("LOCK_TIMEOUT", "10000");
    // Write each commit to the file before it is acknowledged (H2's default is up to 500 ms later),
    // so a
    // crash never loses an acknowledged enqueue or ack.
    defaults.put("WRITE_DELAY", "0");
    if (url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:mem:")) {
      defaults.put("DB_CLOSE_DELAY", "-1"); // keep the database while the pool has no connection
    }
    return JdbcUrl.withDefaults(url, ';', ';', defaults);
  }

  /**
   * Opening a database file is no network connect: a cold start on a busy machine, or recovery of a
   * large file after a crash, can take much longer than a TCP connect time-out, so file (and
   * server) databases wait at least 30 s. An in-memory database has nothing to recover and waits
   * the connect time-out.
   */
  @Override
  public Duration poolConnectionTimeout(String url, Duration connectTimeout) {
    if (url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:mem:")) {
      return connectTimeout;
    }
    Duration minimum = Duration.ofSeconds(30);
    return connectTimeout.compareTo(minimum) < 0 ? minimum : connectTimeout;
  }

  @Override
  public String tableOptions() {
    return "";
  }

  @Override
  public boolean appliesLimitBeforeLocking() {
    return false;
  }

  @Override
  public String queueIndexOrder(boolean descending) {
    // H2 reads the index in order only when the ORDER BY names its columns, even those the WHERE
    // fixes.
    return descending
        ? "queue_name DESC, priority DESC, state DESC, run_after DESC, local_id DESC"
        : "queue_name, priority, state, run_after";
  }

  @Override
  public String jobsToLockById() {
    return "flipper_jobs USE INDEX (flipper_jobs_id)"; // schema migration 5
  }

  @Override
  public String jobsToClaim() {
    return "flipper_jobs";
  }

  @Override
  public String jobsByQueueIndex() {
    return "flipper_jobs USE INDEX (flipper_jobs_scan)"; // schema migration 4
  }

  @Override
  public boolean inProcess() {
    return true;
  }

  @Override
  public String tokenNames() {
    return "flipper_tokens_active"; // H2's indexes other than the row key hold their columns: names
    // are covered
  }

  @Override
  public String jobsByPrimaryKey() {
    return "flipper_jobs";
  }

  @Override
  public String queueRowLock() {
    return " FOR UPDATE"; // H2 has no shared row locks
  }

  @Override
  public boolean insertSelectLocksQueueRow() {
    return false; // H2 reads the SELECT part of an INSERT without locking it
  }

  @Override
  public String asciiKeyColumn(int length) {
    return "VARCHAR(" + length + ")"; // H2 compares with String.compareTo
  }

  @Override
  public String generated(String expression) {
    return "GENERATED ALWAYS AS (" + expression + ")";
  }

  @Override
  public String runsInKeyOrder() {
    return "flipper_runs";
  }

  @Override
  public String runsCounted() {
    return "flipper_runs";
  }

  @Override
  public boolean writersTakeTurns() {
    // H2 (2.3.232 up to 2.5.252) can let two transactions that race on one row both pass a
    // version-conditional
    // UPDATE, so an update is lost, and can hand out one version twice. Its row locks did not
    // prevent it;
    // writers taking turns outside the database did. See docs/tokens.md.
    return true;
  }

  @Override
  public ErrorCodes errorCodes() {
    return CODES;
  }

  @Override
  public Set<Integer> permanentOpenFailureCodes() {
    // WRONG_USER_OR_PASSWORD, INVALID_VALUE_2, FILE_RELATIVE_PATH (90011), URL_FORMAT_ERROR_2,
    // DUPLICATE_PROPERTY_1, UNKNOWN_MODE_1, UNSUPPORTED_SETTING_1
    return Set.of(28000, 90008, 90011, 90046, 90066, 90088, 90113);
  }
}
