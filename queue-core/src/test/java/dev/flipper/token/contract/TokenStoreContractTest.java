package dev.flipper.token.contract;

import dev.flipper.queue.testing.BackendNameOnFailure;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.spi.TokenStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The token storage contract: every {@link TokenStore} must pass it. A backend's test extends this
 * class and only says how to open a store over fresh, isolated storage and how to open another
 * store over the same storage (a second master, or the same master after a restart). The suite
 * drives the stores through {@link TokenService} with a {@link
 * dev.flipper.queue.testing.MutableClock}, so nothing sleeps.
 *
 * <pre>{@code
 * class H2TokenStoreContractTest extends TokenStoreContractTest {
 *   protected TokenStore openStore() { ... new database ... }
 *   protected TokenStore openStoreOverSameStorage() { ... same database, new pool ... }
 *   protected void dropStorage() { ... drop the database ... }
 * }
 * }</pre>
 *
 * <p>Per test: {@link #openStore} is called at most once (lazily), {@link
 * #openStoreOverSameStorage} any number of times; after the test every opened store is closed and
 * {@link #dropStorage} is called. Areas live in their own {@code *Contract} files, each naming the
 * section of docs/tokens.md it checks; "Pinball's ..._test" names a test of the original master
 * that it carries over.
 */
@ExtendWith(BackendNameOnFailure.class)
public abstract class TokenStoreContractTest {

  /**
   * Creates fresh, empty, isolated storage and opens a store over it. Called at most once per test.
   */
  protected abstract TokenStore openStore();

  /**
   * Opens another store instance (its own connections) over the storage of this test's {@link
   * #openStore}, as a second master process, or the first one after a restart, would.
   */
  protected abstract TokenStore openStoreOverSameStorage();

  /** Removes the storage created by {@link #openStore}; called after all stores are closed. */
  protected void dropStorage() {}

  /**
   * The master the tests talk to, over a service. The default is the service itself; a remote
   * transport (for example a Thrift server and client) wraps it here to run the whole suite through
   * the wire. A result that is {@link AutoCloseable} is closed after the test, before the stores.
   */
  protected TokenMaster masterOver(TokenService service) {
    return service;
  }

  TokenFixture fixture;

  @BeforeEach
  final void openFixture() {
    fixture = new TokenFixture(this);
  }

  @AfterEach
  final void closeFixture() {
    fixture.close();
  }

  @Nested
  class Modify extends ModifyContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Query extends QueryContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class QueryAndOwn extends QueryAndOwnContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Group extends GroupContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Archive extends ArchiveContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class RunHistory extends RunHistoryContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class ArchivedQuery extends ArchivedQueryContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Versions extends VersionContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class OriginalMasterTests extends OriginalMasterContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Wait extends WaitContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Concurrency extends ConcurrencyContract {
    @Override
    TokenFixture fx() {
      return fixture;
    }
  }
}
