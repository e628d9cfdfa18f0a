package dev.flipper.workflow.master;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The token master as a daemon: opens the token store and serves {@code TokenMasterService} over Thrift on
 * {@code port}. It holds no state of its own (every call is one database transaction), so several masters
 * may share one database. Thread-safe; {@link #close()} is idempotent and lets running calls finish.
 */
public final class MasterDaemon implements AutoCloseable {
  /**
   * Settings of the master.
   *
   * @param port the Thrift port; 0 = any free port
   * @param store the token database
   */
  public record Config(int port, JdbcTokenStoreConfig store) {}

  private static final Logger log = LoggerFactory.getLogger(MasterDaemon.class);

  private final Config config;
  private final MetricRegistry metrics;
  private JdbcTokenStore store;
  private volatile TokenMasterServer server;
  private boolean closed;

  public MasterDaemon(Config config, MetricRegistry metrics) {
    this.config = Objects.requireNonNull(config, "config");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  public Config config() {
    return config;
  }

  /** Opens the store and starts serving; may be called once. */
  public synchronized void start() {
    if (store != null || closed) {
      throw new IllegalStateException("master daemon cannot start twice or after close");
    }
    store = JdbcTokenStore.open(config.store());
    try {
      server = TokenMasterServer.builder(TokenService.builder(store).build()).port(config.port()).build().start();
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    metrics.gauge("master.running", () -> () -> isReady() ? 1 : 0);
    log.info("token master serving on port {}", server.port());
  }

  /** The bound Thrift port; only valid after {@link #start()}. */
  public int port() {
    return server.port();
  }

  /** True while the Thrift server runs. */
  public boolean isReady() {
    TokenMasterServer s = server;
    return s != null && s.isRunning();
  }

  @Override
  public synchronized void close() {
    closed = true;
    TokenMasterServer s = server;
    server = null;
    if (s != null) {
      s.close();
    }
    if (store != null) {
      store.close();
      store = null;
    }
  }
}
