package dev.flipper.token.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenNames;
import dev.flipper.token.TokenService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What only MariaDB shows: prefix reads and claims are index ranges on the primary key (never a
 * scan of every token), rows are readable with plain SQL, and 1024-character names are indexed
 * whole; the run history is written in the archive's transaction and readable with plain SQL.
 */
@Tag("mariadb")
class MariaDbTokenStoreTest {
  private final TestDatabases databases = new TestDatabases();
  private String url;
  private JdbcTokenStore store;
  private TokenService master;

  @BeforeEach
  void open() {
    url = databases.newMariaDb();
    store = JdbcTokenStore.open(TestDatabases.mariaDbTokens(url));
    master = TokenService.builder(store).build();
  }

  @AfterEach
  void close() {
    store.close();
    databases.close();
  }

  @Test
  void prefixReadsAndClaimCandidatesAreIndexRangesOnTheName() throws SQLException {
    List<Token> tokens = new ArrayList<>();
    for (int wf = 0; wf < 40; wf++) {
      for (int job = 0; job < 50; job++) {
        tokens.add(
            Token.of("/workflow/wf" + wf + "/1/job/runnable/j" + job, "{}").withPriority(job % 7));
      }
    }
    master.modify(new ModifyParams(tokens, List.of()));
    sql("ANALYZE TABLE flipper_tokens_active");
    String prefix = "/workflow/wf7/";
    String bound = "'" + TokenNames.upperBound(prefix) + "'";

    List<String> query =
        explain(
            "SELECT name FROM flipper_tokens_active WHERE name >= '"
                + prefix
                + "' AND name < "
                + bound
                + " ORDER BY name");
    List<String> claim =
        explain(
            "SELECT name FROM flipper_tokens_active WHERE name >= '"
                + prefix
                + "' AND name < "
                + bound
                + " AND leased_until <= 100 ORDER BY priority DESC, name LIMIT 10");

    assertThat(query).containsExactly("range", "PRIMARY");
    assertThat(claim.get(0)).isEqualTo("range");
    assertThat(claim.get(1)).isIn("PRIMARY", "flipper_tokens_claim");
  }

  @Test
  void leasedUntilFollowsHandEditsOfOwnerAndExpiration() throws SQLException {
    master.modify(ModifyParams.updating(Token.of("/h/a", "x")));
    sql(
        "UPDATE flipper_tokens_active SET owner = 'admin', expiration_time = "
            + Long.MAX_VALUE
            + " WHERE name = '/h/a'");

    assertThat(master.queryAndOwn(new QueryAndOwnParams("me", Long.MAX_VALUE, Query.prefix("/h/"))))
        .isEmpty();

    sql("UPDATE flipper_tokens_active SET owner = '' WHERE name = '/h/a'");
    assertThat(master.queryAndOwn(new QueryAndOwnParams("me", Long.MAX_VALUE, Query.prefix("/h/"))))
        .hasSize(1);
  }

  @Test
  void aClaimOfNothingLeavesTheVersionCounterAndEveryRowAlone() {
    master.modify(ModifyParams.updating(Token.of("/c/owned", "x").withOwner("w", Long.MAX_VALUE)));
    long before = store.lastVersion();

    List<Token> claimed =
        master.queryAndOwn(new QueryAndOwnParams("me", Long.MAX_VALUE, Query.prefix("/c/")));

    assertThat(claimed).isEmpty();
    assertThat(store.lastVersion()).isEqualTo(before);
  }

  @Test
  void rowsAreReadableWithPlainSql() throws SQLException {
    String longName =
        "/workflow/" + "a".repeat(TokenNames.MAX_NAME_LENGTH - 12) + "/1"; // sorts first
    master.modify(
        ModifyParams.updating(
            new Token(
                0,
                "/workflow/wf/1/job/waiting/a",
                "worker-1",
                1_900_000_000L,
                1.5,
                "{\"kind\":\"job\",\"v\":\"\u00e9\"}"),
            Token.of(longName, null)));

    try (Connection c = DriverManager.getConnection(url, "root", "");
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT name, owner, expiration_time, priority, data, CHAR_LENGTH(name)"
                    + " FROM flipper_tokens_active WHERE name LIKE '/workflow/%' ORDER BY name")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(6)).isEqualTo(TokenNames.MAX_NAME_LENGTH);
      assertThat(rs.getString(5)).isNull();
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("/workflow/wf/1/job/waiting/a");
      assertThat(rs.getString(2)).isEqualTo("worker-1");
      assertThat(rs.getLong(3)).isEqualTo(1_900_000_000L);
      assertThat(rs.getDouble(4)).isEqualTo(1.5);
      assertThat(rs.getString(5)).isEqualTo("{\"kind\":\"job\",\"v\":\"\u00e9\"}");
    }
  }

  @Test
  void anArchiveWhoseRunCannotBeWrittenMovesNoToken() throws SQLException {
    List<Token> tokens = master.modify(ModifyParams.updating(Token.of("/workflow/wf/1/job/a", "")));
    sql("DROP TABLE flipper_job_runs");

    TokenException e =
        catchThrowableOfType(
            TokenException.class,
            () -> master.archive(tokens, new RunArchive(run("1"), List.of(execution("1")))));

    assertThat(e.errorCode()).isEqualTo(TokenErrorCode.UNKNOWN);
    assertThat(e.getMessage()).contains("archive of '/workflow/wf/1/job/a' with run 'wf/1'");
    assertThat(master.query(Query.prefix("/workflow/"))).isEqualTo(tokens);
    assertThat(store.queryArchived("")).isEmpty();
    assertThat(master.queryRuns(RunQuery.latest("wf", 10)).total()).isZero();
  }

  @Test
  void runHistoryRowsAreReadableWithPlainSql() throws SQLException {
    master.archive(List.of(), new RunArchive(run("1"), List.of(execution("1"))));

    try (Connection c = DriverManager.getConnection(url, "root", "");
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT JSON_VALUE(r.params, '$.date'), r.failed_jobs, r.search_text, r.duration_ms,"
                    + " JSON_VALUE(j.logs, '$.stdout'), j.exit_code"
                    + " FROM flipper_runs r JOIN flipper_job_runs j USING (workflow, instance)")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("2026-11-28 \"quoted\"");
      assertThat(rs.getString(2)).isEqualTo("[\"load\"]");
      assertThat(rs.getString(3)).isEqualTo("1\u001fui\u001fdate=2026-11-28 \"quoted\"");
      assertThat(rs.getLong(4)).isEqualTo(60_000);
      assertThat(rs.getString(5)).isEqualTo("http://host:9000/logs/stdout");
      assertThat(rs.getInt(6)).isEqualTo(1);
    }
  }

  @Test
  void namesTheHistoryCannotHoldAreRefusedBeforeAnythingMoves() {
    List<Token> tokens = master.modify(ModifyParams.updating(Token.of("/workflow/wf/1/job/a", "")));
    String tooLong = "i".repeat(513);
    RunRecord longInstance = new RunRecord("wf", tooLong, "SUCCESS", "ui", 0, 1L, null, null);

    TokenException e =
        catchThrowableOfType(
            TokenException.class,
            () -> master.archive(tokens, new RunArchive(longInstance, List.of())));

    assertThat(e.errorCode()).isEqualTo(TokenErrorCode.INPUT_ERROR);
    assertThat(e.getMessage()).contains("instance is 513 characters long; at most 512");
    assertThat(master.query(Query.prefix("/workflow/"))).isEqualTo(tokens);
  }

  private static RunRecord run(String instance) {
    return new RunRecord(
        "wf",
        instance,
        "FAILURE",
        "ui",
        1_000_000,
        1_060_000L,
        Map.of("date", "2026-11-28 \"quoted\""),
        List.of("load"));
  }

  private static ExecutionRecord execution(String instance) {
    return new ExecutionRecord(
        "wf",
        instance,
        "load",
        1,
        1,
        "FAILURE",
        1_000_000,
        1_050_000L,
        1,
        "worker-1",
        "host",
        null,
        Map.of("stdout", "http://host:9000/logs/stdout"));
  }

  private List<String> explain(String select) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, "root", "");
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + select);
        ResultSet rs = ps.executeQuery()) {
      assertThat(rs.next()).isTrue();
      return List.of(rs.getString("type"), rs.getString("key"));
    }
  }

  private void sql(String statement) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, "root", "");
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }
}
