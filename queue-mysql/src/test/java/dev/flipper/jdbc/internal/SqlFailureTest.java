package dev.flipper.jdbc.internal;

import static dev.flipper.jdbc.internal.SqlFailure.Kind.BUSY;
import static dev.flipper.jdbc.internal.SqlFailure.Kind.FAILED;
import static dev.flipper.jdbc.internal.SqlFailure.Kind.UNREACHABLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.jdbc.Dialect;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/**
 * One classification for both stores and both dialects. HikariCP's pool time-out is busy unless it
 * carries the failure of the pool's last attempt to open a connection (as cause and next exception,
 * the way HikariCP builds it), which means the database could not be reached.
 */
class SqlFailureTest {
  private static final String TIMED_OUT =
      "flipper-shard-1 - Connection is not available, request timed out after"
          + " 500ms (total=2, active=2, idle=0, waiting=14)";

  @Test
  void aPoolTimeOutWithoutAConnectionFailureIsBusyOnBothDialects() {
    SQLException timeout = new SQLTransientConnectionException(TIMED_OUT);
    assertThat(SqlFailure.classify(Dialect.MYSQL, timeout)).isEqualTo(BUSY);
    assertThat(SqlFailure.classify(Dialect.H2, timeout)).isEqualTo(BUSY);
  }

  @Test
  void aPoolTimeOutAfterARefusedConnectionIsUnreachable() {
    SQLException refused =
        new SQLNonTransientConnectionException(
            "Communications link failure", "08S01", new ConnectException("Connection refused"));
    assertThat(SqlFailure.classify(Dialect.MYSQL, hikariTimeout(refused))).isEqualTo(UNREACHABLE);
  }

  @Test
  void aPoolTimeOutAfterAnyFailureToOpenAConnectionIsUnreachable() {
    SQLException accessDenied = new SQLException("Access denied for user 'flipper'", "28000", 1045);
    assertThat(SqlFailure.classify(Dialect.MYSQL, hikariTimeout(accessDenied)))
        .isEqualTo(UNREACHABLE);
    SQLException fileInUse = new SQLException("Database may be already in use", "90020", 90020);
    assertThat(SqlFailure.classify(Dialect.H2, hikariTimeout(fileInUse))).isEqualTo(UNREACHABLE);
  }

  @Test
  void aConnectionLostDuringWorkIsUnreachable() {
    assertThat(
            SqlFailure.classify(
                Dialect.MYSQL, new SQLException("Communications link failure", "08S01")))
        .isEqualTo(UNREACHABLE);
    assertThat(
            SqlFailure.classify(
                Dialect.H2, new SQLException("Connection is broken", "90067", 90067)))
        .isEqualTo(UNREACHABLE);
  }

  @Test
  void aBadStatementIsAFailure() {
    SQLException syntax = new SQLException("You have an error in your SQL syntax", "42000", 1064);
    assertThat(SqlFailure.classify(Dialect.MYSQL, syntax)).isEqualTo(FAILED);
    assertThat(SqlFailure.classify(Dialect.H2, new SQLException("Syntax error", "42000", 42000)))
        .isEqualTo(FAILED);
  }

  @Test
  void bothDialectsKnowTheirLockConflictsAndDuplicateKeys() {
    assertThat(Dialect.MYSQL.isRetryable(new SQLException("Deadlock found", "40001", 1213)))
        .isTrue();
    assertThat(
            Dialect.MYSQL.isRetryable(
                new SQLException("Lock wait timeout exceeded", "HY000", 1205)))
        .isTrue();
    assertThat(
            Dialect.H2.isRetryable(
                new SQLException("Timeout trying to lock table", "HYT00", 50200)))
        .isTrue();
    assertThat(Dialect.H2.isRetryable(new SQLException("Concurrent update", "90131", 90131)))
        .isTrue();
    assertThat(Dialect.MYSQL.isDuplicateKey(new SQLException("Duplicate entry", "23000", 1062)))
        .isTrue();
    assertThat(
            Dialect.H2.isDuplicateKey(new SQLException("Unique index violation", "23505", 23505)))
        .isTrue();
    assertThat(Dialect.H2.isRetryable(new SQLException("Syntax error", "42000", 42000))).isFalse();
  }

  /**
   * The exception HikariCP throws when no connection came in time and its last attempt to open one
   * failed.
   */
  private static SQLException hikariTimeout(SQLException lastConnectionFailure) {
    SQLException timeout =
        new SQLTransientConnectionException(
            TIMED_OUT, lastConnectionFailure.getSQLState(), lastConnectionFailure);
    timeout.setNextException(lastConnectionFailure);
    return timeout;
  }
}
