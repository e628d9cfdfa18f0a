package dev.flipper.workflow.engine;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import org.junit.jupiter.api.Tag;

/** The engine on the SQL token store over a MariaDB database of its own (127.0.0.1:3306). */
@Tag("mariadb")
class MariaDbEngineTest extends EngineContractTest {
  private final TestDatabases databases = new TestDatabases();
  private JdbcTokenStore store;

  @Override
  protected TokenMaster openMaster(SettableClock clock) {
    store =
        JdbcTokenStore.open(
            TestDatabases.mariaDbTokens(databases.newMariaDb()).withPoolSize(WORKERS + 2));
    return TokenService.builder(store).clock(clock).build();
  }

  @Override
  protected void closeMaster() {
    store.close();
    databases.close();
  }
}
