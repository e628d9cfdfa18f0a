package dev.flipper.token.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.Query;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A token store whose pool is all in use answers "busy" after its wait, names the pool state and
 * changes nothing; a database that refuses connections is "cannot be reached". Same classification
 * as the queue store.
 */
class TokenPoolSaturationTest {
  private final TestDatabases databases = new TestDatabases();
  private JdbcTokenStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
    databases.close();
  }

  @Test
  @Tag("mariadb")
  void aFullPoolIsBusyNotUnreachable() throws Exception {
    store =
        JdbcTokenStore.open(
            new JdbcTokenStoreConfig(
                databases.newMariaDb(), "root", "", 2, Duration.ofMillis(300)));
    DataSource pool = store.database().dataSource();
    List<Connection> held = new ArrayList<>();
    try {
      held.add(pool.getConnection());
      held.add(pool.getConnection());
      TokenException e =
          catchThrowableOfType(TokenException.class, () -> store.query(List.of(Query.prefix("/"))));
      assertThat(e.errorCode()).isEqualTo(TokenErrorCode.UNKNOWN);
      assertThat(e.getMessage())
          .contains(
              "is busy",
              "nothing was changed",
              "pool wait of 300 ms",
              "total=2",
              "active=2",
              "idle=0",
              "waiting=");
    } finally {
      for (Connection c : held) {
        c.close();
      }
    }
    assertThat(store.query(List.of(Query.prefix("/")))).containsExactly(List.of());
  }

  @Test
  void aRefusedConnectionIsUnreachable() {
    JdbcTokenStoreConfig config =
        new JdbcTokenStoreConfig(
            TestDatabases.unreachableMysqlUrl(), "root", "", 2, Duration.ofMillis(500));
    IllegalStateException e =
        catchThrowableOfType(IllegalStateException.class, () -> JdbcTokenStore.open(config));
    assertThat(e.getMessage()).contains("cannot be reached").doesNotContain("busy");
  }
}
