package dev.flipper.token.contract;

import dev.flipper.queue.testing.MutableClock;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.spi.TokenStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The state of one contract test: the clock, the stores opened through the backend's hooks and the
 * masters over them. Opened lazily, closed after the test. Not thread-safe (set up from the test
 * thread); the masters it hands out are.
 */
final class TokenFixture implements AutoCloseable {
  /** Not on a whole second, so a store that confuses seconds and milliseconds is caught. */
  static final Instant START = Instant.parse("2024-03-10T12:00:00.123Z");

  final MutableClock clock = MutableClock.startingAt(START);

  private final TokenStoreContractTest backend;
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final List<TokenService> services = new ArrayList<>();
  private TokenStore store;
  private TokenMaster master;
  private boolean storageCreated;

  TokenFixture(TokenStoreContractTest backend) {
    this.backend = backend;
  }

  /** The store of the first master. */
  TokenStore store() {
    if (store == null) {
      store = storageCreated ? backend.openStoreOverSameStorage() : backend.openStore();
      storageCreated = true;
      opened.add(store);
    }
    return store;
  }

  /**
   * The first master: over {@link #store()}, with the fixture's clock, through the backend's
   * transport.
   */
  TokenMaster master() {
    if (master == null) {
      master = masterOver(store());
    }
    return master;
  }

  /**
   * A further master over its own store instance on the same storage, as another process would run.
   */
  TokenMaster anotherMaster() {
    store();
    TokenStore another = backend.openStoreOverSameStorage();
    opened.add(another);
    return masterOver(another);
  }

  /**
   * Closes the first master and its store (as a process exit would) and opens them again over the
   * storage.
   */
  TokenMaster restart() {
    store();
    closeQuietly(master);
    opened.remove(master);
    store.close();
    opened.remove(store);
    store = null;
    master = null;
    return master();
  }

  /**
   * The service behind the most recent {@link #master()} or {@link #anotherMaster()}, to see its
   * waiting claims.
   */
  TokenService lastService() {
    return services.get(services.size() - 1);
  }

  /**
   * Ends the waiting claims of every service of this test (see {@link TokenService#endWaits()}).
   */
  void endWaits() {
    services.forEach(TokenService::endWaits);
  }

  private TokenMaster masterOver(TokenStore over) {
    TokenService service = TokenService.builder(over).clock(clock).build();
    services.add(service);
    TokenMaster made = backend.masterOver(service);
    if (made instanceof AutoCloseable closeable) {
      opened.add(closeable);
    }
    return made;
  }

  private static void closeQuietly(Object maybeCloseable) {
    if (maybeCloseable instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing " + closeable + " failed", e);
      }
    }
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    // Masters (clients, servers) first, then stores: reverse order of opening.
    for (int i = opened.size() - 1; i >= 0; i--) {
      try {
        closeQuietly(opened.get(i));
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (storageCreated) {
      backend.dropStorage();
    }
    if (failure != null) {
      throw failure;
    }
  }
}
