package dev.flipper.workflow.master.server;

import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Thrift {@code TokenMasterService} in front of a {@link TokenMaster}, wire-compatible with Pinball's
 * master: plain (unframed) socket transport, binary protocol (reads strict and old non-strict headers),
 * one thread per connection like Pinball's TThreadedServer. Default port {@value #DEFAULT_PORT}.
 *
 * <pre>{@code
 * try (TokenMasterServer server = TokenMasterServer.builder(tokenService).port(9090).build().start()) { ... }
 * }</pre>
 *
 * <p>The server holds no state: several servers over stores sharing one database serve the same tokens.
 * Thread-safe. {@link #close()} stops accepting, lets calls in flight finish for up to the grace period, then
 * closes every connection; clients reconnect elsewhere or after a restart.
 */
public final class TokenMasterServer implements AutoCloseable {
  /** Pinball's master port. */
  public static final int DEFAULT_PORT = 9090;

  private static final Logger log = LoggerFactory.getLogger(TokenMasterServer.class);

  private enum State { NEW, RUNNING, CLOSED }

  private final Builder config;
  private final TokenMasterHandler handler;
  private final Set<TSocket> connections = ConcurrentHashMap.newKeySet();
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private TrackingServerSocket socket;
  private TThreadPoolServer server;
  private ThreadPoolExecutor workers;
  private Thread serveThread;
  private int boundPort;

  private TokenMasterServer(Builder builder) {
    this.config = builder;
    this.handler = new TokenMasterHandler(builder.master);
  }

  public static Builder builder(TokenMaster master) {
    return new Builder(master);
  }

  /** Binds the port and starts serving; IllegalStateException if the port cannot be bound. */
  public TokenMasterServer start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException("a TokenMasterServer can be started once; this one is " + state.get());
    }
    try {
      ServerSocket bound = new ServerSocket();
      bound.setReuseAddress(true);
      bound.bind(new InetSocketAddress(config.bindHost, config.port), 128);
      socket = new TrackingServerSocket(bound);
      boundPort = bound.getLocalPort();
    } catch (java.io.IOException | TTransportException e) {
      state.set(State.CLOSED);
      throw new IllegalStateException("token master cannot listen on " + config.bindHost + ":" + config.port + ": "
          + e.getMessage() + " (is another master running there? choose another port)", e);
    }
    workers = new ThreadPoolExecutor(0, config.maxConnections, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
        named("flipper-master-conn"));
    server = new TThreadPoolServer(new TThreadPoolServer.Args(socket)
        .processor(new TokenMasterService.Processor<>(handler))
        .protocolFactory(new TBinaryProtocol.Factory())
        .executorService(workers)
        .stopTimeoutVal(1)
        .stopTimeoutUnit(TimeUnit.SECONDS));
    serveThread = new Thread(server::serve, "flipper-master-accept");
    serveThread.setDaemon(true);
    serveThread.start();
    awaitServing();
    log.info("token master listening on {}:{} (maxConnections={}, shutdownGracePeriod={})", config.bindHost, port(),
        config.maxConnections, config.shutdownGracePeriod);
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
    return state.get() == State.RUNNING;
  }

  /** Open client connections. */
  public int connectionCount() {
    connections.removeIf(c -> !c.isOpen());
    return connections.size();
  }

  @Override
  public void close() {
    if (!state.compareAndSet(State.RUNNING, State.CLOSED)) {
      return;
    }
    long deadline = System.nanoTime() + config.shutdownGracePeriod.toNanos();
    server.stop(); // no new connections
    while (handler.inFlight() > 0 && System.nanoTime() < deadline) {
      sleepMillis(5);
    }
    if (handler.inFlight() > 0) {
      log.warn("closing the token master with {} call(s) still running after the grace period of {}",
          handler.inFlight(), config.shutdownGracePeriod);
    }
    // End of input wakes each connection thread blocked reading the next request; it then closes its socket
    // quietly (closing the socket under it instead would log a SocketException per connection).
    connections.forEach(TokenMasterServer::shutdownInput);
    socket.close();
    workers.shutdown();
    try {
      if (!workers.awaitTermination(2, TimeUnit.SECONDS)) {
        connections.forEach(TSocket::close);
        workers.shutdownNow();
      }
      serveThread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.info("token master on port {} closed", boundPort);
  }

  /**
   * Returns once the accept loop runs. TThreadPoolServer clears its stop flag when its loop starts, so a
   * close() before that moment would be forgotten and the loop would spin on the closed socket.
   */
  private void awaitServing() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!server.isServing()) {
      if (!serveThread.isAlive() || System.nanoTime() > deadline) {
        state.set(State.CLOSED);
        server.stop();
        socket.close();
        workers.shutdownNow();
        throw new IllegalStateException("token master on port " + boundPort + " did not start serving");
      }
      sleepMillis(1);
    }
  }

  private static void shutdownInput(TSocket connection) {
    try {
      connection.getSocket().shutdownInput();
    } catch (java.io.IOException | RuntimeException e) {
      connection.close();
    }
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory named(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Remembers accepted connections so that close() can end them. */
  private final class TrackingServerSocket extends TServerSocket {
    TrackingServerSocket(ServerSocket bound) throws TTransportException {
      super(bound, 0);
    }

    @Override
    public TSocket accept() throws TTransportException {
      TSocket accepted = super.accept();
      connections.removeIf(c -> !c.isOpen());
      connections.add(accepted);
      return accepted;
    }
  }

  /** Settings of a {@link TokenMasterServer}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final TokenMaster master;
    private int port = DEFAULT_PORT;
    private String bindHost = "0.0.0.0";
    private int maxConnections = 512;
    private Duration shutdownGracePeriod = Duration.ofSeconds(5);

    private Builder(TokenMaster master) {
      this.master = Objects.requireNonNull(master, "master");
    }

    /** TCP port; 0 = any free port (see {@link #port()}). Default {@value #DEFAULT_PORT}. */
    public Builder port(int newPort) {
      this.port = newPort;
      return this;
    }

    /** Address to listen on; default 0.0.0.0 (all interfaces). */
    public Builder bindHost(String newBindHost) {
      this.bindHost = Objects.requireNonNull(newBindHost, "bindHost");
      return this;
    }

    /** Most connections served at once, one thread each; a connection beyond that is closed at once. Default 512. */
    public Builder maxConnections(int newMaxConnections) {
      this.maxConnections = newMaxConnections;
      return this;
    }

    /** How long close() lets calls in flight finish. Default 5 s. */
    public Builder shutdownGracePeriod(Duration newGracePeriod) {
      this.shutdownGracePeriod = Objects.requireNonNull(newGracePeriod, "shutdownGracePeriod");
      return this;
    }

    public TokenMasterServer build() {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("master port is " + port + "; use 0 (any free port) to 65535");
      }
      if (maxConnections < 1) {
        throw new IllegalArgumentException("master maxConnections is " + maxConnections + "; it must be at least 1");
      }
      if (shutdownGracePeriod.isNegative()) {
        throw new IllegalArgumentException("master shutdownGracePeriod is " + shutdownGracePeriod
            + "; it must not be negative");
      }
      return new TokenMasterServer(this);
    }
  }
}
