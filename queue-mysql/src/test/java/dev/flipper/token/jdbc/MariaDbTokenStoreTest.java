package dev.flipper.token.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What only MariaDB shows: prefix reads and claims are index ranges on the primary key (never a
 * scan of every token), rows are readable with plain SQL, and 1024-character names are indexed
 * whole.
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
