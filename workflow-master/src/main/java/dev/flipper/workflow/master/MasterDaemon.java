package dev.flipper.workflow.master;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.RunState;
import dev.flipper.token.TokenService;
import dev.flipper.token.spi.TokenStore;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The token master as a daemon: serves {@code TokenMasterService} over Thrift on {@code
 * bindAddress:port} in front of the {@link TokenStore} it is given (the launcher opens it, as it
 * opens the queue's store), so this module needs no storage library. It holds no state of its own
 * (every call is one store operation), so several masters may share one database. It owns the
 * store: {@link #close()} closes it. Thread-safe; {@link #close()} is idempotent and lets running
 * calls finish.
 */
public final class MasterDaemon implements Daemon<MasterDaemon.Config> {
  /**
   * Settings of the master.
   *
   * @param bindAddress the address the Thrift port listens on, e.g. 127.0.0.1 or 0.0.0.0 (every
   *     interface)
   * @param port the Thrift port; 0 = any free port
   */
  /**
   * @param idleTimeout a connection that sends nothing for this long is closed (config
   *     master.idleTimeout)
   * @param messageReadTimeout a request must arrive whole this long after its first byte (config
   *     master.messageReadTimeout)
   * @param maxConnections most connections at once (config master.maxConnections)
   * @param maxConnectionsPerPeer most connections from one address (config
   *     master.maxConnectionsPerPeer)
   */
  public record Config(
      String bindAddress,
      int port,
      Duration idleTimeout,
      Duration messageReadTimeout,
      int maxConnections,
      int maxConnectionsPerPeer) {
    public Config {
      Objects.requireNonNull(bindAddress, "bindAddress");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      Objects.requireNonNull(messageReadTimeout, "messageReadTimeout");
    }

    /**
     * With the server's default idle timeout (5 min), message-read time-out (60 s) and connection
     * limits (512, 64 per address).
     */
    public Config(String bindAddress, int port) {
      this(
          bindAddress,
          port,
          TokenMasterServer.DEFAULT_IDLE_TIMEOUT,
          TokenMasterServer.DEFAULT_MESSAGE_READ_TIMEOUT,
          TokenMasterServer.DEFAULT_MAX_CONNECTIONS,
          TokenMasterServer.DEFAULT_MAX_CONNECTIONS_PER_PEER);
    }

    /**
     * The server's defaults: 127.0.0.1, port {@value TokenMasterServer#DEFAULT_PORT}. The {@code
     * master} section of the launcher's config takes its defaults from these.
     */
    public static Config defaults() {
      return new Config(TokenMasterServer.DEFAULT_BIND_HOST, TokenMasterServer.DEFAULT_PORT);
    }
  }

  private static final Logger log = LoggerFactory.getLogger(MasterDaemon.class);

  private final Config config;
  private final TokenStore store;
  private final MetricRegistry metrics;
  private final RunState state = new RunState("master daemon");
  private volatile TokenMasterServer server;

  public MasterDaemon(Config config, TokenStore store, MetricRegistry metrics) {
    this.config = Objects.requireNonNull(config, "config");
    this.store = Objects.requireNonNull(store, "store");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  public Config config() {
    return config;
  }

  /** Starts serving; may be called once. */
  @Override
  public synchronized void start() {
    state.start();
    TokenService service = TokenService.builder(store).build();
    server =
        TokenMasterServer.builder(service)
            .bindHost(config.bindAddress())
            .port(config.port())
            .idleTimeout(config.idleTimeout())
            .messageReadTimeout(config.messageReadTimeout())
            .maxConnections(config.maxConnections())
            .maxConnectionsPerPeer(config.maxConnectionsPerPeer())
            .metrics(metrics)
            .build()
            .start();
    metrics.gauge("master.running", () -> () -> isReady() ? 1 : 0);
    metrics.gauge(
        "master.waiting_claims", () -> service::waitingClaims); // idle workers long-polling
    log.info("token master serving on {}:{}", config.bindAddress(), server.port());
  }

  /** The bound Thrift port; only valid after {@link #start()}. */
  public int port() {
    return server.port();
  }

  @Override
  public Map<String, Boolean> readiness() {
    TokenMasterServer s = server;
    return Map.of("thrift", s != null && s.isRunning());
  }

  @Override
  public List<String> endpoints() {
    TokenMasterServer s = server;
    return s == null ? List.of() : List.of("thrift port " + s.port());
  }

  /** Stops the server (running calls finish), then closes the store; also after a failed start. */
  @Override
  public synchronized void close() {
    state.close();
    TokenMasterServer s = server;
    server = null;
    if (s != null) {
      s.close();
    }
    try {
      store.close();
    } catch (RuntimeException e) {
      log.warn("closing the token store failed: {}", e.toString());
    }
  }
}
