package dev.flipper.token.jdbc;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.contract.TokenStoreContractTest;
import dev.flipper.token.spi.TokenStore;
import org.junit.jupiter.api.Tag;

/**
 * The token storage contract over {@link JdbcTokenStore} on MariaDB, one fresh database per test.
 */
@Tag("mariadb")
class MariaDbTokenStoreContractTest extends TokenStoreContractTest {
  private final TestDatabases databases = new TestDatabases();
  private String url;

  @Override
  protected TokenStore openStore() {
    url = databases.newMariaDb();
    return JdbcTokenStore.open(TestDatabases.mariaDbTokens(url));
  }

  @Override
  protected TokenStore openStoreOverSameStorage() {
    return JdbcTokenStore.open(TestDatabases.mariaDbTokens(url));
  }

  @Override
  protected void dropStorage() {
    databases.close();
  }
}
