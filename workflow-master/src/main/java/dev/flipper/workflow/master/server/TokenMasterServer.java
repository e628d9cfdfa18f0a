package dev.flipper.workflow.master.server;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.NamedThreadFactory;
import dev.flipper.lifecycle.RunState;
import dev.flipper.text.DurationText;
import dev.flipper.thrift.BoundedBinaryProtocol;
import dev.flipper.thrift.ConnectionLimits;
import dev.flipper.thrift.ConnectionRefusals;
import dev.flipper.thrift.PeerFaults;
import dev.flipper.thrift.ThriftServing;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TProcessor;
import org.apache.thrift.TProcessorFactory;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Thrift {@code TokenMasterService} in front of a {@link TokenMaster}, wire-compatible with
 * Pinball's master: plain (unframed) socket transport, binary protocol (reads strict and old
 * non-strict headers), one thread per connection like Pinball's TThreadedServer. Default port
 * {@value #DEFAULT_PORT}.
 *
 * <pre>{@code
 * try (TokenMasterServer server = TokenMasterServer.builder(tokenService).port(9090).build().start()) { ... }
 * }</pre>
 *
 * <p>The server holds no state: several servers over stores sharing one database serve the same
 * tokens. Thread-safe. {@link #close()} stops accepting, ends waiting claims (they answer with no
 * tokens), lets calls in flight finish for up to the grace period, then closes every connection;
 * clients reconnect elsewhere or after a restart.
 *
 * <p>With a {@link Builder#tls TLS identity} every connection must present a certificate of the
 * deployment's authority, and each call is checked against the role the certificate names ({@link
 * MasterPermissions}, docs/security.md).
 */
public final class TokenMasterServer implements AutoCloseable {
  /** Pinball's master port. */
  public static final int DEFAULT_PORT = 9090;

  /** This machine only, as the shared config's network.bindAddress. */
  public static final String DEFAULT_BIND_HOST = "127.0.0.1";

  /** Above the longest claim wait, {@link dev.flipper.token.TokenService#DEFAULT_MAX_WAIT_TIME}. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);

  public static final Duration DEFAULT_MESSAGE_READ_TIMEOUT = Duration.ofSeconds(60);

  /** As the queue server's default {@code maxFrameBytes}. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

  /** One thread each. */
  public static final int DEFAULT_MAX_CONNECTIONS = 512;

  /** An eighth of {@link #DEFAULT_MAX_CONNECTIONS}: one host cannot take them all. */
  public static final int DEFAULT_MAX_CONNECTIONS_PER_PEER = 64;

  private static final Logger log = LoggerFactory.getLogger(TokenMasterServer.class);
  private static final int SPARE_THREADS = 8;

  private final Settings config;
  private final TokenMasterHandler handler;
  private final ConnectionLimits<DeadlineSocket> connections;
  private final RunState state = new RunState("token master server");
  private final PeerFaults faults;
  private TrackingServerSocket socket;
  private TThreadPoolServer server;
  private ThriftServing serving;
  private ThreadPoolExecutor workers;
  private ScheduledExecutorService handshakeDeadlines;
  private int boundPort;

  private TokenMasterServer(Settings settings) {
    this.config = settings;
    this.handler = new TokenMasterHandler(settings.master);
    this.faults =
        new PeerFaults(
            "token master",
            reason -> settings.metrics.counter("master.peer_faults." + reason).inc());
    this.connections =
        new ConnectionLimits<>(
            settings.maxConnections,
            settings.maxConnectionsPerPeer,
            new ConnectionRefusals(
                "token master",
                reason -> settings.metrics.counter("master.connections_rejected." + reason).inc()),
            limit -> settings.metrics.counter("master.connections_evicted." + limit).inc());
  }

  public static Builder builder(TokenMaster master) {
    return new Builder(master);
  }

  /** Binds the port and starts serving; IllegalStateException if the port cannot be bound. */
  public TokenMasterServer start() {
    state.start();
    try {
      ServerSocket bound = listen(new InetSocketAddress(config.bindHost, config.port));
      socket = new TrackingServerSocket(bound);
      boundPort = bound.getLocalPort();
    } catch (java.io.IOException | TTransportException e) {
      state.close();
      throw new IllegalStateException(
          "token master cannot listen on "
              + config.bindHost
              + ":"
              + config.port
              + ": "
              + e.getMessage()
              + " (is another master running there? choose another port)",
          e);
    }
    // Connections are counted at accept; the spare threads cover connections closed whose thread is
    // still ending.
    workers =
        new ThreadPoolExecutor(
            0,
            config.maxConnections + SPARE_THREADS,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            new NamedThreadFactory("flipper-master-conn"));
    server =
        new TThreadPoolServer(
            new TThreadPoolServer.Args(socket)
                .processorFactory(processors())
                // Strings, binaries and lists are checked against the message limit before anything
                // is allocated.
                .protocolFactory(
                    BoundedBinaryProtocol.factory(
                        false,
                        true,
                        config.maxMessageBytes,
                        maxContainerLength(config.maxMessageBytes)))
                .executorService(workers)
                .stopTimeoutVal(1)
                .stopTimeoutUnit(TimeUnit.SECONDS));
    serving =
        new ThriftServing(
            "token master on port " + boundPort,
            server,
            handler::inFlight,
            config.shutdownGracePeriod);
    try {
      serving.start("flipper-master-accept");
    } catch (RuntimeException e) {
      state.close();
      socket.close();
      workers.shutdownNow();
      stopHandshakeDeadlines();
      throw e;
    }
    log.info(
        "token master listening on {}:{} ({}maxConnections={}, maxConnectionsPerPeer={}, idleTimeout={}, "
            + "messageReadTimeout={}, maxMessageBytes={}, shutdownGracePeriod={})",
        config.bindHost,
        port(),
        config.tls == null ? "" : "TLS as " + config.tls.subject().name() + ", ",
        config.maxConnections,
        config.maxConnectionsPerPeer,
        config.idleTimeout,
        config.messageReadTimeout,
        config.maxMessageBytes,
        config.shutdownGracePeriod);
    return this;
  }

  /** The bound port; with port 0 the one the system chose. */
  public int port() {
    if (socket == null) {
      throw new IllegalStateException("the server is not started");
    }
    return boundPort;
  }

  public boolean isRunning() {
    return state.isRunning();
  }

  /** Open client connections. */
  public int connectionCount() {
    return connections.count();
  }

  @Override
  public void close() {
    if (!state.close()) {
      return;
    }
    // serving polls handler.inFlight() while it drains, which also ends waits that began after
    // closing().
    serving.drain(
        () -> {
          server.stop(); // no new connections
          handler
              .closing(); // waiting claims answer (nothing) now rather than lose their connection
        });
    // End of input wakes each connection thread blocked reading the next request; it then closes
    // its socket
    // quietly (closing the socket under it instead would log a SocketException per connection).
    connections.open().forEach(DeadlineSocket::shutdownInput);
    socket.close();
    workers.shutdown();
    try {
      if (!workers.awaitTermination(2, TimeUnit.SECONDS)) {
        connections.open().forEach(DeadlineSocket::close);
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    serving.stop();
    stopHandshakeDeadlines();
    log.info("token master on port {} closed", boundPort);
  }

  private ServerSocket listen(InetSocketAddress address) throws java.io.IOException {
    if (config.tls != null) {
      handshakeDeadlines =
          Executors.newSingleThreadScheduledExecutor(
              new NamedThreadFactory("flipper-master-handshake"));
      return config.tls.listen(address, 128);
    }
    ServerSocket bound = new ServerSocket();
    bound.setReuseAddress(true);
    bound.bind(address, 128);
    return bound;
  }

  private void stopHandshakeDeadlines() {
    if (handshakeDeadlines != null) {
      handshakeDeadlines.shutdownNow();
    }
  }

  /**
   * One processor per connection (made on its thread): heartbeats it writes carry its address
   * ({@link PublisherStamp}); with TLS, its calls are checked against the role of the certificate
   * it presented.
   */
  private TProcessorFactory processors() {
    return new TProcessorFactory(null) {
      @Override
      public TProcessor getProcessor(TTransport transport) {
        DeadlineSocket connection = (DeadlineSocket) transport;
        TokenMasterService.Iface calls = new PublisherStamp(handler, connection.peer());
        if (config.tls == null) {
          return new QuietProcessor(
              new TokenMasterService.Processor<>(TimedCalls.wrap(calls, config.metrics)), faults);
        }
        AuthorisedCalls.Caller caller =
            () ->
                connection.tlsPeer(
                    handshakeDeadlines,
                    (peer, reason) -> faults.fault("tls_handshake", peer, reason));
        return new QuietProcessor(
            new TokenMasterService.Processor<>(
                TimedCalls.wrap(
                    new AuthorisedCalls(calls, caller, config.metrics), config.metrics)),
            faults,
            caller);
      }
    };
  }

  /**
   * Most elements in one list: libthrift sizes the list before reading it, and an element takes at
   * least a few bytes on the wire; one per 16 bytes allows 1 Mi elements in 16 MiB (a Token takes
   * more than 16).
   */
  private static int maxContainerLength(int maxMessageBytes) {
    return maxMessageBytes / 16;
  }

  /** What {@link Builder#build()} validated; the server never reads its builder again. */
  private record Settings(
      TokenMaster master,
      String bindHost,
      int port,
      int maxConnections,
      int maxConnectionsPerPeer,
      Duration idleTimeout,
      Duration messageReadTimeout,
      int maxMessageBytes,
      Duration shutdownGracePeriod,
      MetricRegistry metrics,
      TlsIdentity tls) {}

  /**
   * Remembers accepted connections so that close() can end them, and admits a new one under the
   * server's and its peer address's limits ({@link ConnectionLimits}: at a limit the longest-idle
   * connection makes room, and a new one is refused only when all are in a call; a refused one is
   * closed at once while the others go on being served). Each connection ({@link DeadlineSocket})
   * waits for a request up to the idle timeout, so an idle one ends and frees its thread, and reads
   * each request within the message-read time-out.
   */
  private final class TrackingServerSocket extends TServerSocket {
    TrackingServerSocket(ServerSocket bound) throws TTransportException {
      super(bound, (int) Math.min(Integer.MAX_VALUE, config.idleTimeout.toMillis()));
    }

    @Override
    public TSocket accept() throws TTransportException {
      while (true) {
        DeadlineSocket accepted = acceptWithDeadlines();
        if (accepted == null) {
          continue; // gone before it was set up
        }
        if (connections.admit(accepted)) {
          // What libthrift checks declared lengths against; it resets to this after each answer.
          accepted.getConfiguration().setMaxMessageSize(config.maxMessageBytes);
          accepted.updateKnownMessageSize(0);
          return accepted;
        }
        accepted.close();
      }
    }

    private DeadlineSocket acceptWithDeadlines() throws TTransportException {
      ServerSocket listening = getServerSocket();
      if (listening == null) {
        throw new TTransportException(
            TTransportException.NOT_OPEN, "the master's socket is closed");
      }
      java.net.Socket raw;
      try {
        raw = listening.accept();
      } catch (java.io.IOException e) {
        throw new TTransportException(e);
      }
      InetSocketAddress peer = (InetSocketAddress) raw.getRemoteSocketAddress();
      try {
        return new DeadlineSocket(
            raw,
            (int) Math.min(Integer.MAX_VALUE, config.idleTimeout.toMillis()),
            config.messageReadTimeout.toNanos(),
            () ->
                faults.fault(
                    "message_read_timeout",
                    peer,
                    "a request still incomplete after " + config.messageReadTimeout));
      } catch (TTransportException e) {
        // TSocket fails on a socket its peer reset before it was set up: that costs this connection
        // only.
        closeQuietly(raw);
        faults.fault("reset_before_setup", peer, "connection gone before it was set up: " + e);
        return null;
      }
    }

    private static void closeQuietly(java.net.Socket socket) {
      try {
        socket.close();
      } catch (java.io.IOException ignored) {
        // the connection is gone either way
      }
    }
  }

  /** Settings of a {@link TokenMasterServer}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final TokenMaster master;
    private int port = DEFAULT_PORT;
    private String bindHost = DEFAULT_BIND_HOST;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private int maxConnectionsPerPeer = DEFAULT_MAX_CONNECTIONS_PER_PEER;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private Duration messageReadTimeout = DEFAULT_MESSAGE_READ_TIMEOUT;
    private Duration shutdownGracePeriod = Duration.ofSeconds(5);
    private MetricRegistry metrics = new MetricRegistry();
    private TlsIdentity tls;

    private Builder(TokenMaster master) {
      this.master = Objects.requireNonNull(master, "master");
    }

    /** TCP port; 0 = any free port (see {@link #port()}). Default {@value #DEFAULT_PORT}. */
    public Builder port(int newPort) {
      this.port = newPort;
      return this;
    }

    /**
     * Address to listen on; default 127.0.0.1 (this machine only); 0.0.0.0 = every IPv4 interface.
     */
    public Builder bindHost(String newBindHost) {
      this.bindHost = Objects.requireNonNull(newBindHost, "bindHost");
      return this;
    }

    /**
     * Most connections served at once, one thread each; a new connection beyond that closes the
     * longest-idle one, or is closed at once when all are in a call (its call fails on the client).
     * A connection holds its thread while idle too, and a waiting queryAndOwn holds its connection
     * for up to its wait, so allow at least one connection per client thread that may wait at once
     * (for example, every idle worker slot) plus the other clients' pools. Default 512.
     */
    public Builder maxConnections(int newMaxConnections) {
      this.maxConnections = newMaxConnections;
      return this;
    }

    /**
     * Most connections from one peer address, so one host cannot take every connection. A new
     * connection beyond it closes the longest-idle one from that address (and is refused only when
     * all of them are in a call), so a new caller from a host that piled up idle connections still
     * gets in. Default 64.
     */
    public Builder maxConnectionsPerPeer(int newMaxConnectionsPerPeer) {
      this.maxConnectionsPerPeer = newMaxConnectionsPerPeer;
      return this;
    }

    /**
     * A connection that sends nothing for this long is closed (waiting for the next request or in
     * the middle of one), freeing its thread; clients reconnect on their next call. Longer than any
     * claim wait (30 s). Default 5 min, as PinLater's servers.
     */
    public Builder idleTimeout(Duration newIdleTimeout) {
      this.idleTimeout = Objects.requireNonNull(newIdleTimeout, "idleTimeout");
      return this;
    }

    /**
     * Longest time to read one request, from its first byte to its last; a connection still reading
     * one then is closed, so a peer sending a byte at a time cannot hold a connection thread for
     * ever. Default 60 s.
     */
    public Builder messageReadTimeout(Duration newMessageReadTimeout) {
      this.messageReadTimeout = Objects.requireNonNull(newMessageReadTimeout, "messageReadTimeout");
      return this;
    }

    /**
     * Largest request accepted, as the queue server's {@code maxFrameBytes}: a string, binary or
     * list declared longer closes the connection before anything is allocated for it. Default 16
     * MiB.
     */
    public Builder maxMessageBytes(int newMaxMessageBytes) {
      this.maxMessageBytes = newMaxMessageBytes;
      return this;
    }

    /** How long close() lets calls in flight finish. Default 5 s. */
    public Builder shutdownGracePeriod(Duration newGracePeriod) {
      this.shutdownGracePeriod = Objects.requireNonNull(newGracePeriod, "shutdownGracePeriod");
      return this;
    }

    /**
     * Where call timers ({@code TokenMaster.<method>}) and error counters go; default a private
     * registry.
     */
    public Builder metrics(MetricRegistry registry) {
      this.metrics = Objects.requireNonNull(registry, "metrics");
      return this;
    }

    /**
     * Serve mutual TLS as this identity: a connection must present a certificate of the same
     * authority, and what it may change depends on the certificate's role (docs/security.md).
     * Default none: plain Thrift, every caller may do everything (as Pinball's master).
     */
    public Builder tls(TlsIdentity identity) {
      this.tls = Objects.requireNonNull(identity, "tls");
      return this;
    }

    public TokenMasterServer build() {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException(
            "master port is " + port + "; use 0 (any free port) to 65535");
      }
      if (maxConnections < 1) {
        throw new IllegalArgumentException(
            "master maxConnections is " + maxConnections + "; it must be at least 1");
      }
      if (maxConnectionsPerPeer < 1) {
        throw new IllegalArgumentException(
            "master maxConnectionsPerPeer is " + maxConnectionsPerPeer + "; it must be at least 1");
      }
      if (idleTimeout.toMillis() < 1) {
        throw new IllegalArgumentException(
            "master idleTimeout is "
                + DurationText.format(idleTimeout)
                + "; it must be at least 1 ms");
      }
      if (messageReadTimeout.toMillis() < 1) {
        throw new IllegalArgumentException(
            "master messageReadTimeout is "
                + DurationText.format(messageReadTimeout)
                + "; it must be at least 1 ms");
      }
      if (maxMessageBytes < 1024) {
        throw new IllegalArgumentException(
            "master maxMessageBytes is " + maxMessageBytes + "; it must be at least 1024");
      }
      if (shutdownGracePeriod.isNegative()) {
        throw new IllegalArgumentException(
            "master shutdownGracePeriod is "
                + DurationText.format(shutdownGracePeriod)
                + "; it must not be negative");
      }
      return new TokenMasterServer(
          new Settings(
              master,
              bindHost,
              port,
              maxConnections,
              maxConnectionsPerPeer,
              idleTimeout,
              messageReadTimeout,
              maxMessageBytes,
              shutdownGracePeriod,
              metrics,
              tls));
    }
  }
}
