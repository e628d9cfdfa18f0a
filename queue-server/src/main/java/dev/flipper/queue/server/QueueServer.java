package dev.flipper.queue.server;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.NamedThreadFactory;
import dev.flipper.lifecycle.RunState;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.server.internal.DequeueRateLimiter;
import dev.flipper.queue.server.internal.GuardedServerSocket;
import dev.flipper.queue.server.internal.InlineInvoker;
import dev.flipper.queue.server.internal.LongPoll;
import dev.flipper.queue.server.internal.PinLaterHandler;
import dev.flipper.queue.server.internal.QueueAccess;
import dev.flipper.queue.server.internal.QuietAsyncProcessor;
import dev.flipper.queue.server.internal.ServerMetrics;
import dev.flipper.queue.server.internal.WatchedFile;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.text.DurationText;
import dev.flipper.thrift.BoundedBinaryProtocol;
import dev.flipper.thrift.ConnectionRefusals;
import dev.flipper.thrift.PeerFaults;
import dev.flipper.thrift.ServerAddress;
import dev.flipper.thrift.ServerSetFile;
import dev.flipper.thrift.ThriftServing;
import dev.flipper.tls.TlsIdentity;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.server.TThreadedSelectorServer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PinLater-compatible Thrift server in front of a {@link QueueService}: framed transport,
 * binary protocol (reads strict and old non-strict message headers, writes strict ones), selector
 * threads for I/O and a worker pool for queue operations. Unknown methods, including Finagle's
 * {@code __can__finagle__trace__v3__} probe, get {@code TApplicationException(UNKNOWN_METHOD)} and
 * the connection stays usable; an oversized enqueue gets ENQUEUE_REJECTED, another oversized,
 * stalled or malformed frame closes only its own connection (counted, logged once a minute at
 * most). With {@link Builder#tls} every connection speaks mutual TLS and each call is made as the
 * role its certificate names (see {@link QueueAccess}).
 *
 * <pre>{@code
 * try (QueueServer server = QueueServer.builder(queueService).port(9010).build().start()) { ... }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops accepting connections, lets calls in flight finish
 * (long-poll dequeues return at once) for up to the grace period, then stops.
 */
public final class QueueServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(QueueServer.class);

  /**
   * The libthrift in-memory frame transport refuses messages over 100 MiB whatever we configure.
   */
  private static final int MAX_FRAME_BYTES_LIMIT = 100 * 1024 * 1024;

  /**
   * A hand-off to a worker thread and back costs tens of microseconds; a store call this short is
   * not worth it.
   */
  public static final Duration DEFAULT_DIRECT_CALL_LIMIT = Duration.ofNanos(200_000);

  /*
   * The builder's defaults. The shared config's queue.* keys take theirs from these (dist's ConfigSchema), and
   * dist's DefaultsAgreementTest checks that the two agree.
   */
  /** This machine only, as the config's network.bindAddress. */
  public static final String DEFAULT_BIND_HOST = "127.0.0.1";

  /** PinLater's port. */
  public static final int DEFAULT_PORT = 9010;

  public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

  /**
   * An empty dequeue that asks for no wait (PinLater's clients) answers at once. Flipper's clients
   * ask for a wait in the request (see {@link #longestDequeueHold}).
   */
  public static final Duration DEFAULT_LONG_POLL_TIMEOUT = Duration.ZERO;

  /** PinLater's idle time-out. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);

  public static final Duration DEFAULT_FRAME_READ_TIMEOUT = Duration.ofSeconds(60);

  public static final int DEFAULT_MAX_CONNECTIONS = 4096;

  /** An eighth of {@link #DEFAULT_MAX_CONNECTIONS}: one host cannot take them all. */
  public static final int DEFAULT_MAX_CONNECTIONS_PER_PEER = 512;

  /** Body-filtered calls at once: a few regex searches leave most of the 32 workers to others. */
  public static final int DEFAULT_MAX_CONCURRENT_BODY_FILTERS = 4;

  private static final Duration MAX_DIRECT_CALL_LIMIT = Duration.ofMillis(10);

  private final Settings config;
  private final ServerMetrics metrics;
  private final DequeueRateLimiter rateLimiter;
  private final List<WatchedFile<?>> watchedFiles = new ArrayList<>();
  private final RunState state = new RunState("queue server");
  private ScheduledExecutorService timer;
  private ThreadPoolExecutor workers;
  private LongPoll longPoll;
  private PinLaterHandler handler;
  private GuardedServerSocket socket;
  private ThriftServing serving;
  private int boundPort;
  private final List<String> gauges = new ArrayList<>();

  private QueueServer(Settings settings) {
    this.config = settings;
    this.metrics = new ServerMetrics(settings.metrics);
    this.rateLimiter = new DequeueRateLimiter(settings.clock);
  }

  public static Builder builder(QueueService service) {
    return new Builder(service);
  }

  /**
   * Loads the rate-limit and server-set files, binds the port and starts serving. Fails with an
   * IllegalArgumentException if the rate-limit file is missing or invalid, IllegalStateException if
   * the port cannot be bound.
   */
  public QueueServer start() {
    state.start();
    try {
      startWatchingFiles();
      workers =
          new ThreadPoolExecutor(
              config.workerThreads,
              config.workerThreads,
              0,
              TimeUnit.MILLISECONDS,
              new LinkedBlockingQueue<>(config.maxQueuedCalls),
              new NamedThreadFactory("flipper-queue-worker"));
      longPoll =
          new LongPoll(
              config.longPollTimeout, longestDequeueHold(config.idleTimeout), timer, workers);
      handler =
          new PinLaterHandler(
              config.service,
              rateLimiter,
              longPoll,
              metrics,
              config.maxFrameBytes,
              workers,
              config.maxQueuedCalls,
              config.directCallLimit,
              config.maxConcurrentBodyFilters,
              config.tls == null ? QueueAccess.open() : QueueAccess.byRole(config.metrics));
      startThrift();
      registerGauges();
      log.info(
          "queue server listening on {}:{}{} (maxFrameBytes={}, workerThreads={}, selectorThreads={}, "
              + "directCallLimit={}, longPollTimeout={}, rateLimitFile={}, serverSetFile={}, servers sharing rates={})",
          config.bindHost,
          boundPort,
          config.tls == null ? "" : " with mutual TLS as " + config.tls.subject().name(),
          config.maxFrameBytes,
          config.workerThreads,
          config.selectorThreads,
          config.directCallLimit,
          config.longPollTimeout,
          config.rateLimitFile,
          config.serverSetFile,
          rateLimiter.serverCount());
      return this;
    } catch (RuntimeException e) {
      state.close();
      stopEverything();
      throw e;
    }
  }

  /** The bound port; with port 0 the ephemeral port the system chose. */
  public int port() {
    if (state.get() == RunState.State.NEW) {
      throw new IllegalStateException("the server is not started yet");
    }
    return boundPort;
  }

  public boolean isRunning() {
    return state.isRunning() && serving != null && serving.isServing();
  }

  /** Open client connections. */
  public int connectionCount() {
    return socket == null ? 0 : socket.connectionCount();
  }

  /** The limiter, for tests and the admin endpoints: current per-server rates. */
  public DequeueRateLimiter rateLimiter() {
    return rateLimiter;
  }

  @Override
  public void close() {
    if (!state.close()) {
      return;
    }
    Duration left =
        serving.drain(
            () -> {
              socket
                  .close(); // stop accepting connections; open connections are served until the end
              // of the grace period
              longPoll.releaseAll();
            });
    if (handler.inFlight() == 0) {
      // Answers are written by the selector threads just after the call completes; give them that
      // moment.
      ThriftServing.pause(Math.min(100, left.toMillis()));
    }
    stopEverything();
    log.info("queue server on port {} closed", boundPort);
  }

  private void startWatchingFiles() {
    timer =
        Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("flipper-queue-timer"));
    if (config.rateLimitFile != null) {
      WatchedFile<Map<String, Double>> rates =
          new WatchedFile<>(
              config.rateLimitFile,
              "rate-limit file",
              RateLimitFile::parse,
              rateLimiter::configure);
      rates.loadInitial();
      watchedFiles.add(rates);
    }
    if (config.serverSetFile != null) {
      WatchedFile<List<ServerAddress>> serverSet =
          new WatchedFile<>(
              config.serverSetFile,
              "server-set file",
              content -> ServerSetFile.parse(content, config.serverSetFile.toString()),
              servers -> {
                if (servers.isEmpty()) {
                  throw new IllegalArgumentException(
                      "it lists no server; still dividing rates by " + rateLimiter.serverCount());
                }
                rateLimiter.serverCount(servers.size());
              });
      serverSet.poll(); // lenient at start: this server may be listed only after it is up
      watchedFiles.add(serverSet);
    }
    if (!watchedFiles.isEmpty()) {
      long every = config.configReloadInterval.toMillis();
      timer.scheduleWithFixedDelay(this::pollFiles, every, every, TimeUnit.MILLISECONDS);
    }
  }

  private void pollFiles() {
    for (WatchedFile<?> file : watchedFiles) {
      try {
        file.poll();
      } catch (RuntimeException e) {
        log.warn("checking {} failed: {}", file.path(), e.toString());
      }
    }
  }

  private void startThrift() {
    PeerFaults faults =
        new PeerFaults(
            "queue server",
            reason -> config.metrics.counter("PinLaterService.peer_faults." + reason).inc());
    try {
      socket =
          new GuardedServerSocket(
              new TNonblockingServerSocket.NonblockingAbstractServerSocketArgs()
                  .bindAddr(new InetSocketAddress(config.bindHost, config.port)),
              config.maxFrameBytes,
              config.maxReadBufferBytes,
              config.maxConnections,
              config.maxConnectionsPerPeer,
              config.idleTimeout,
              config.frameReadTimeout,
              new ConnectionRefusals(
                  "queue server",
                  reason ->
                      config
                          .metrics
                          .counter("PinLaterService.connections_rejected." + reason)
                          .inc()),
              limit -> config.metrics.counter("PinLaterService.connections_evicted." + limit).inc(),
              faults,
              config.tls);
    } catch (TTransportException e) {
      throw new IllegalStateException(
          "cannot listen on "
              + config.bindHost
              + ":"
              + config.port
              + ": "
              + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()),
          e);
    }
    boundPort = socket.getPort();
    long idleCheckMillis =
        Math.max(
            10,
            Math.min(
                5_000,
                Math.min(config.idleTimeout.toMillis(), config.frameReadTimeout.toMillis()) / 4));
    timer.scheduleWithFixedDelay(
        socket::closeIdle, idleCheckMillis, idleCheckMillis, TimeUnit.MILLISECONDS);
    TThreadedSelectorServer.Args args =
        new TThreadedSelectorServer.Args(socket)
            .selectorThreads(config.selectorThreads)
            .executorService(new InlineInvoker())
            .stopTimeoutVal(1)
            .stopTimeoutUnit(TimeUnit.SECONDS);
    args.processor(new QuietAsyncProcessor(new PinLater.AsyncProcessor<>(handler), faults));
    // strictRead=false accepts old non-versioned headers; strictWrite=true, as PinLater answered.
    // BoundedBinaryProtocol also refuses negative string lengths, which libthrift's fast path turns
    // into a
    // StringIndexOutOfBoundsException.
    args.protocolFactory(
        BoundedBinaryProtocol.factory(false, true, config.maxFrameBytes, config.maxFrameBytes));
    args.transportFactory(new TFramedTransport.Factory(config.maxFrameBytes));
    // The sockets admit frames against Flipper's ReadBudget; libthrift's own budget would make
    // every frame wait,
    // with no time limit, behind a few large ones.
    args.maxReadBufferBytes = Long.MAX_VALUE;
    serving =
        new ThriftServing(
            "queue server on port " + boundPort,
            new TThreadedSelectorServer(args),
            () -> handler.inFlight(),
            config.shutdownGracePeriod);
    serving.start("flipper-queue-thrift-" + boundPort);
  }

  private void registerGauges() {
    gauge("PinLaterService.inflight_calls", handler::inFlight);
    gauge("PinLaterService.long_poll_waiting", longPoll::waiting);
  }

  private void gauge(String name, Gauge<Integer> gauge) {
    if (!config.metrics.getGauges().containsKey(name)) {
      config.metrics.register(name, gauge);
      gauges.add(name);
    }
  }

  private void stopEverything() {
    if (serving != null) {
      serving.stop();
    }
    if (socket != null) {
      socket.close();
    }
    if (workers != null) {
      workers.shutdownNow();
    }
    if (timer != null) {
      timer.shutdownNow();
    }
    for (String name : gauges) {
      config.metrics.remove(name);
    }
  }

  /** What {@link Builder#build()} validated; the server never reads its builder again. */
  private record Settings(
      QueueService service,
      String bindHost,
      int port,
      int maxFrameBytes,
      long maxReadBufferBytes,
      int workerThreads,
      int selectorThreads,
      int maxQueuedCalls,
      Duration directCallLimit,
      MetricRegistry metrics,
      Path rateLimitFile,
      Path serverSetFile,
      Duration configReloadInterval,
      Duration longPollTimeout,
      Duration shutdownGracePeriod,
      Clock clock,
      int maxConnections,
      int maxConnectionsPerPeer,
      Duration idleTimeout,
      Duration frameReadTimeout,
      int maxConcurrentBodyFilters,
      TlsIdentity tls) {}

  /**
   * The longest this server holds a dequeue that asked for a wait: {@link DequeueParams#MAX_WAIT},
   * or half the idle time-out when that is shorter, so a held call (which moves no bytes) is never
   * closed as idle. A longer asked wait is shortened to it.
   */
  public static Duration longestDequeueHold(Duration idleTimeout) {
    Duration half = idleTimeout.dividedBy(2);
    return half.compareTo(DequeueParams.MAX_WAIT) < 0 ? half : DequeueParams.MAX_WAIT;
  }

  /** Settings of a {@link QueueServer}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final QueueService service;
    private String bindHost = DEFAULT_BIND_HOST;
    private int port = DEFAULT_PORT;
    private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    private long maxReadBufferBytes = -1;
    private int workerThreads = 32;
    private int selectorThreads = 2;
    private int maxQueuedCalls = 5000;
    private Duration directCallLimit = DEFAULT_DIRECT_CALL_LIMIT;
    private MetricRegistry metrics = new MetricRegistry();
    private Path rateLimitFile;
    private Path serverSetFile;
    private Duration configReloadInterval = Duration.ofSeconds(5);
    private Duration longPollTimeout = DEFAULT_LONG_POLL_TIMEOUT;
    private Duration shutdownGracePeriod = Duration.ofSeconds(10);
    private Clock clock = Clock.systemUTC();
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private int maxConnectionsPerPeer = DEFAULT_MAX_CONNECTIONS_PER_PEER;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private Duration frameReadTimeout = DEFAULT_FRAME_READ_TIMEOUT;
    private int maxConcurrentBodyFilters = DEFAULT_MAX_CONCURRENT_BODY_FILTERS;
    private TlsIdentity tls;

    private Builder(QueueService service) {
      this.service = Objects.requireNonNull(service, "service");
    }

    /**
     * Address to listen on. Default 127.0.0.1 (this machine only); 0.0.0.0 = every IPv4 interface.
     */
    public Builder bindHost(String host) {
      this.bindHost = host;
      return this;
    }

    /**
     * Thrift port. Default 9010, PinLater's; 0 picks a free port, see {@link QueueServer#port()}.
     */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /**
     * Largest request or answer frame. A larger enqueue is answered ENQUEUE_REJECTED (its bytes are
     * read and dropped), any other larger request closes its connection; a dequeue answers with the
     * jobs that fit in this size and puts the others back (no attempt used). Default 16 MiB, at
     * most 100 MiB.
     */
    public Builder maxFrameBytes(int bytes) {
      this.maxFrameBytes = bytes;
      return this;
    }

    /**
     * Memory for request frames over 64 KiB being read or served, all connections together; one
     * peer address may hold a quarter of it. A larger frame beyond it (or beyond what the heap has
     * free) is refused: an enqueue gets ENQUEUE_REJECTED, another call loses its connection.
     * Smaller frames are always read. Default 8 frames.
     */
    public Builder maxReadBufferBytes(long bytes) {
      this.maxReadBufferBytes = bytes;
      return this;
    }

    /** Threads running queue operations (storage calls block them). Default 32. */
    public Builder workerThreads(int threads) {
      this.workerThreads = threads;
      return this;
    }

    /** Threads doing network I/O. Default 2. */
    public Builder selectorThreads(int threads) {
      this.selectorThreads = threads;
      return this;
    }

    /**
     * Calls waiting for a worker thread; beyond it a new call is answered UNKNOWN, "the queue
     * server is overloaded", with nothing done (overload protection). Default 5000, PinLater's
     * MAX_CONCURRENT_REQUESTS.
     */
    public Builder maxQueuedCalls(int calls) {
      this.maxQueuedCalls = calls;
      return this;
    }

    /**
     * Enqueue, dequeue, ack, checkpoint and lookup calls run on the selector thread that read them,
     * without a hand-off to a worker thread, while the store has answered that call within this
     * time on average (a Redis or in-memory store on the same network does; JDBC stores do not).
     * Default 200 µs; 0 = always on a worker thread. At most 10 ms: a selector running a call reads
     * nothing else meanwhile.
     */
    public Builder directCallLimit(Duration limit) {
      this.directCallLimit = limit;
      return this;
    }

    /** Where the PinLater-named metrics go. Default: a private registry. */
    public Builder metrics(MetricRegistry registry) {
      this.metrics = registry;
      return this;
    }

    /**
     * PinLater's rate-limit JSON file ({@code
     * {"queues":[{"name":..,"queueConfig":{"maxJobsPerSecond":..}}]}}), re-read every {@link
     * #configReloadInterval}. Null (default): no dequeue rate limits.
     */
    public Builder rateLimitFile(Path file) {
      this.rateLimitFile = file;
      return this;
    }

    /**
     * File of live servers, one host:port per line; each server takes rate ÷ their number. Null: 1
     * server.
     */
    public Builder serverSetFile(Path file) {
      this.serverSetFile = file;
      return this;
    }

    /** How often the rate-limit and server-set files are checked for changes. Default 5 s. */
    public Builder configReloadInterval(Duration interval) {
      this.configReloadInterval = interval;
      return this;
    }

    /** How long an empty dequeue may wait for jobs before answering. Default 0: answer at once. */
    public Builder longPollTimeout(Duration timeout) {
      this.longPollTimeout = timeout;
      return this;
    }

    /**
     * How long {@link QueueServer#close()} lets running calls finish. Default 10 s, as PinLater.
     */
    public Builder shutdownGracePeriod(Duration grace) {
      this.shutdownGracePeriod = grace;
      return this;
    }

    /**
     * Most connections open at once; a new one beyond it closes the longest-idle connection, or is
     * closed at once when all are in a call (counted, one log line a minute at most) while the open
     * ones are still served. Default 4096.
     */
    public Builder maxConnections(int connections) {
      this.maxConnections = connections;
      return this;
    }

    /**
     * Most connections from one peer address, so that one host cannot take them all; a new one
     * beyond it closes that address's longest-idle connection, as {@link #maxConnections}. Default
     * 512.
     */
    public Builder maxConnectionsPerPeer(int connections) {
      this.maxConnectionsPerPeer = connections;
      return this;
    }

    /**
     * A connection that moves no bytes for this long is closed; clients reconnect. Must exceed the
     * long-poll timeout. Default 5 min, as PinLater's.
     */
    public Builder idleTimeout(Duration timeout) {
      this.idleTimeout = timeout;
      return this;
    }

    /**
     * Longest time to read one request frame, from its first byte to its last; a connection still
     * reading a frame then is closed, so a peer sending a byte at a time cannot hold a frame (and
     * its memory) for ever. Default 60 s (16 MiB at 2.2 Mbit/s).
     */
    public Builder frameReadTimeout(Duration timeout) {
      this.frameReadTimeout = timeout;
      return this;
    }

    /**
     * Most body-filtered calls (scanJobs, getJobCount, deleteJobs with a body regex) running or
     * waiting for a worker at once; one more is refused at once, nothing done, so regex searches
     * cannot take every worker thread from the other calls; keep it below {@link #workerThreads}.
     * Default {@value #DEFAULT_MAX_CONCURRENT_BODY_FILTERS}.
     */
    public Builder maxConcurrentBodyFilters(int calls) {
      this.maxConcurrentBodyFilters = calls;
      return this;
    }

    /**
     * Serve mutual TLS as {@code identity}: a connection must complete a handshake with a
     * certificate of the identity's authority within the frame-read time-out, and each call is
     * allowed or refused by the role its certificate names (docs/security.md). Null (default):
     * plain Thrift, every call allowed, as PinLater.
     */
    public Builder tls(TlsIdentity identity) {
      this.tls = identity;
      return this;
    }

    /** Time source of the rate limiter. Default: the system clock. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    public QueueServer build() {
      require(bindHost != null && !bindHost.isBlank(), "bindHost must not be blank");
      require(port >= 0 && port <= 65535, "port must be 0..65535 (0 = any free port), was " + port);
      require(
          maxFrameBytes >= 1024 && maxFrameBytes <= MAX_FRAME_BYTES_LIMIT,
          "maxFrameBytes must be 1024.." + MAX_FRAME_BYTES_LIMIT + ", was " + maxFrameBytes);
      long readBuffer = maxReadBufferBytes < 0 ? 8L * maxFrameBytes : maxReadBufferBytes;
      require(
          readBuffer >= maxFrameBytes,
          "maxReadBufferBytes must be >= maxFrameBytes (" + maxFrameBytes + "), was " + readBuffer);
      require(
          workerThreads >= 1 && workerThreads <= 10_000,
          "workerThreads must be 1..10000, was " + workerThreads);
      require(maxQueuedCalls >= 1, "maxQueuedCalls must be >= 1, was " + maxQueuedCalls);
      require(
          directCallLimit != null
              && !directCallLimit.isNegative()
              && directCallLimit.compareTo(MAX_DIRECT_CALL_LIMIT) <= 0,
          "directCallLimit must be 0..10ms, was " + DurationText.format(directCallLimit));
      require(
          selectorThreads >= 1 && selectorThreads <= 64,
          "selectorThreads must be 1..64, was " + selectorThreads);
      Objects.requireNonNull(metrics, "metrics");
      require(
          configReloadInterval != null
              && !configReloadInterval.isNegative()
              && !configReloadInterval.isZero(),
          "configReloadInterval must be > 0, was " + DurationText.format(configReloadInterval));
      require(
          longPollTimeout != null && !longPollTimeout.isNegative(),
          "longPollTimeout must be >= 0 (0 = off), was " + DurationText.format(longPollTimeout));
      require(
          shutdownGracePeriod != null && !shutdownGracePeriod.isNegative(),
          "shutdownGracePeriod must be >= 0, was " + DurationText.format(shutdownGracePeriod));
      Objects.requireNonNull(clock, "clock");
      require(maxConnections >= 1, "maxConnections must be >= 1, was " + maxConnections);
      require(
          maxConnectionsPerPeer >= 1,
          "maxConnectionsPerPeer must be >= 1, was " + maxConnectionsPerPeer);
      require(
          idleTimeout != null && idleTimeout.compareTo(longPollTimeout) > 0,
          "idleTimeout must be longer than longPollTimeout ("
              + longPollTimeout
              + "), was "
              + idleTimeout);
      require(
          frameReadTimeout != null && frameReadTimeout.toMillis() >= 1,
          "frameReadTimeout must be at least 1 ms, was " + DurationText.format(frameReadTimeout));
      require(
          maxConcurrentBodyFilters >= 1,
          "maxConcurrentBodyFilters must be >= 1, was " + maxConcurrentBodyFilters);
      return new QueueServer(
          new Settings(
              service,
              bindHost,
              port,
              maxFrameBytes,
              readBuffer,
              workerThreads,
              selectorThreads,
              maxQueuedCalls,
              directCallLimit,
              metrics,
              rateLimitFile,
              serverSetFile,
              configReloadInterval,
              longPollTimeout,
              shutdownGracePeriod,
              clock,
              maxConnections,
              maxConnectionsPerPeer,
              idleTimeout,
              frameReadTimeout,
              maxConcurrentBodyFilters,
              tls));
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException("queue server: " + message);
      }
    }
  }
}
