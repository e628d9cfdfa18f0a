package dev.flipper.workflow.master.client;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.text.DurationText;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.master.thrift.ArchiveRequest;
import dev.flipper.workflow.master.thrift.ArchivedQueryRequest;
import dev.flipper.workflow.master.thrift.DeleteArchivedRequest;
import dev.flipper.workflow.master.thrift.DeleteRunRequest;
import dev.flipper.workflow.master.thrift.GroupRequest;
import dev.flipper.workflow.master.thrift.GroupResponse;
import dev.flipper.workflow.master.thrift.ModifyRequest;
import dev.flipper.workflow.master.thrift.QueryAndOwnRequest;
import dev.flipper.workflow.master.thrift.QueryExecutionsRequest;
import dev.flipper.workflow.master.thrift.QueryExecutionsResponse;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.QueryResponse;
import dev.flipper.workflow.master.thrift.QueryRunsRequest;
import dev.flipper.workflow.master.thrift.QueryRunsResponse;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import dev.flipper.workflow.master.wire.HistoryWireMapping;
import dev.flipper.workflow.master.wire.WireMapping;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TokenMaster} on a remote master (Flipper's or Pinball's) over Thrift: unframed socket,
 * binary protocol. Thread-safe: each call borrows a connection from a small pool, opening one if
 * none is idle.
 *
 * <p><b>Reconnecting.</b> A connection that cannot be opened is tried again up to {@code
 * connectAttempts} times, waiting between attempts with a capped, jittered exponential backoff;
 * then the call fails with UNKNOWN. A connection that breaks is dropped. What happens to the call
 * then depends on whether the master may have executed it:
 *
 * <ul>
 *   <li>the request could not be sent: it runs again on a new connection;
 *   <li>it was sent but no answer came: query and group run again; modify and archive run again too
 *       (their versions make a second execution impossible), but if that retry fails with
 *       VERSION_CONFLICT or NOT_FOUND the first attempt may have applied, so the call fails with
 *       UNKNOWN saying the outcome is unknown; queryAndOwn fails with UNKNOWN at once (a retry
 *       could claim a second set of tokens while the first stays owned until its lease ends).
 * </ul>
 *
 * <pre>{@code
 * try (TokenMasterClient master = TokenMasterClient.builder("master-host", 9090).build()) {
 *   List<Token> jobs = master.queryAndOwn(QueryAndOwnParams.of("worker-1", leaseEnd, Query.top(prefix, 1)));
 * }
 * }</pre>
 *
 * <p>With {@link Builder#tls} it speaks mutual TLS: it presents its certificate and checks that the
 * master's names the host dialled. A failed handshake (a certificate of another authority, a wrong
 * host name) is not retried: it fails the call at once with the reason.
 */
public final class TokenMasterClient implements TokenMaster, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TokenMasterClient.class);

  private final String host;
  private final int port;
  private final Duration connectTimeout;
  private final Duration socketTimeout;
  private final int connectAttempts;
  private final Backoff backoff;
  private final int maxIdleConnections;
  private final long checkAfterIdleNanos;
  private final TlsIdentity tls;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Connections of claims waiting in the master now, which {@link #stopWaiting()} cuts short. */
  private final Set<Connection> waiting = ConcurrentHashMap.newKeySet();

  private volatile boolean noWaits;

  private TokenMasterClient(Builder builder) {
    this.host = builder.host;
    this.port = builder.port;
    this.connectTimeout = builder.connectTimeout;
    this.socketTimeout = builder.socketTimeout;
    this.connectAttempts = builder.connectAttempts;
    this.backoff = new Backoff(builder.initialBackoff, builder.maxBackoff);
    this.maxIdleConnections = builder.maxIdleConnections;
    this.checkAfterIdleNanos = builder.checkAfterIdle.toNanos();
    this.tls = builder.tls;
  }

  public static Builder builder(String host, int port) {
    return new Builder(host, port);
  }

  /** "host:port" of the master. */
  public String address() {
    return host + ":" + port;
  }

  @Override
  public List<Token> modify(ModifyParams params) {
    requireNames(params.updates(), "modify");
    requireNames(params.deletes(), "modify");
    ModifyRequest request = new ModifyRequest();
    if (!params.updates().isEmpty()) {
      request.setUpdates(WireMapping.toWire(params.updates()));
    }
    if (!params.deletes().isEmpty()) {
      request.setDeletes(WireMapping.toWire(params.deletes()));
    }
    return call(
        "modify", Retry.UNLESS_CONFLICT, c -> WireMapping.fromWire(c.modify(request).getUpdates()));
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    if (queries == null) {
      return List.of();
    }
    if (queries.stream().anyMatch(Objects::isNull)) { // List.of(...).contains(null) would throw
      throw TokenException.inputError("the query list holds a null query");
    }
    QueryRequest request = new QueryRequest();
    List<dev.flipper.workflow.master.thrift.Query> wire = new ArrayList<>();
    queries.forEach(q -> wire.add(WireMapping.toWire(q)));
    request.setQueries(wire);
    return call(
        "query",
        Retry.ALWAYS,
        c -> {
          QueryResponse response = c.query(request);
          List<List<Token>> results = new ArrayList<>();
          if (response.getTokens() != null) {
            response.getTokens().forEach(list -> results.add(WireMapping.fromWire(list)));
          }
          while (results.size() < queries.size()) {
            results.add(List.of()); // an old master leaves the lists unset for an empty request
          }
          return results;
        });
  }

  /**
   * Claims over the wire. A waiting claim ({@link QueryAndOwnParams#waitTime()}) reads its answer
   * with the socket time-out plus the wait, so a wait never looks like a dead master. A Pinball
   * master does not know the wait and answers at once.
   */
  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params) {
    QueryAndOwnRequest request = WireMapping.toWire(params);
    if (noWaits && request.isSetWaitTimeMillis()) {
      request.setWaitTimeMillis(0);
    }
    long waitMillis =
        request.isSetWaitTimeMillis()
            ? Math.min(Math.max(0, request.getWaitTimeMillis()), Integer.MAX_VALUE)
            : 0; // the master shortens the wait to its limit anyway
    try {
      return call(
          "queryAndOwn",
          Retry.NEVER,
          waitMillis,
          c -> WireMapping.fromWire(c.query_and_own(request).getTokens()));
    } catch (WaitCut cut) {
      return List.of();
    }
  }

  /**
   * For a stopping daemon: from now on claims do not wait in the master (they answer at once), and
   * claims waiting now end with no tokens, their connection closed, so loops blocked in a claim
   * stop within milliseconds instead of at the end of the wait. Other calls are not affected: a
   * stopping worker still hands its jobs back. Should the master claim tokens for a wait cut short
   * at that very moment, they become claimable again when their lease ends, as after a broken
   * connection. Idempotent.
   */
  public void stopWaiting() {
    noWaits = true;
    waiting.forEach(Connection::cut);
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    GroupRequest request = new GroupRequest();
    if (namePrefix != null) {
      request.setNamePrefix(namePrefix);
    }
    if (groupSuffix != null) {
      request.setGroupSuffix(groupSuffix);
    }
    return call(
        "group",
        Retry.ALWAYS,
        c -> {
          GroupResponse response = c.group(request);
          return response.getCounts() == null
              ? Collections.emptySortedMap()
              : Collections.unmodifiableSortedMap(new TreeMap<>(response.getCounts()));
        });
  }

  @Override
  public void archive(List<Token> tokens) {
    requireNames(tokens, "archive");
    ArchiveRequest request = new ArchiveRequest().setTokens(WireMapping.toWire(tokens));
    call(
        "archive",
        Retry.UNLESS_CONFLICT,
        c -> {
          c.archive(request);
          return null;
        });
  }

  /**
   * A Pinball master does not have this method: the call fails with UNKNOWN saying the master
   * rejected it.
   */
  @Override
  public List<Token> queryArchived(String namePrefix, Token after, int maxTokens) {
    ArchivedQueryRequest request =
        new ArchivedQueryRequest()
            .setMaxTokens(maxTokens)
            .setNamePrefix(
                namePrefix == null ? "" : namePrefix); // the master refuses an unset prefix
    if (after != null) {
      requireNames(List.of(after), "queryArchived");
      request.setAfterName(after.name()).setAfterVersion(after.version());
    }
    return call(
        "queryArchived",
        Retry.ALWAYS,
        c -> WireMapping.fromWire(c.query_archived(request).getTokens()));
  }

  /**
   * Deleting twice deletes nothing more, so a lost answer is retried; the count is then that of the
   * retry.
   */
  @Override
  public int deleteArchived(String namePrefix) {
    DeleteArchivedRequest request = new DeleteArchivedRequest();
    if (namePrefix != null) {
      request.setNamePrefix(namePrefix);
    }
    return call("deleteArchived", Retry.ALWAYS, c -> c.delete_archived(request).getDeleted());
  }

  /**
   * Retried as {@link #archive(List)}. A Pinball master does not know the run field: it archives
   * the tokens and records no run.
   */
  @Override
  public void archive(List<Token> tokens, RunArchive run) {
    if (run == null) {
      throw TokenException.inputError("an archive with run history needs the run");
    }
    List<Token> archived = tokens == null ? List.of() : tokens;
    requireNames(archived, "archive");
    ArchiveRequest request =
        new ArchiveRequest()
            .setTokens(WireMapping.toWire(archived))
            .setRun(HistoryWireMapping.toWire(run));
    call(
        "archive",
        Retry.UNLESS_CONFLICT,
        c -> {
          c.archive(request);
          return null;
        });
  }

  /** A Pinball master does not have this method: the call fails with UNKNOWN, as queryArchived. */
  @Override
  public RunPage queryRuns(RunQuery query) {
    if (query == null) {
      throw TokenException.inputError("queryRuns needs a query");
    }
    QueryRunsRequest request = HistoryWireMapping.toWire(query);
    QueryRunsResponse page = call("queryRuns", Retry.ALWAYS, c -> c.query_runs(request));
    return HistoryWireMapping.fromWire(page);
  }

  /** A Pinball master does not have this method: the call fails with UNKNOWN, as queryArchived. */
  @Override
  public ExecutionPage queryExecutions(ExecutionQuery query) {
    if (query == null) {
      throw TokenException.inputError("queryExecutions needs a query");
    }
    QueryExecutionsRequest request = HistoryWireMapping.toWire(query);
    QueryExecutionsResponse page =
        call("queryExecutions", Retry.ALWAYS, c -> c.query_executions(request));
    return HistoryWireMapping.fromWire(page);
  }

  /**
   * Deleting twice deletes nothing more, so a lost answer is retried, as {@link #deleteArchived};
   * the count is then that of the retry.
   */
  @Override
  public int deleteRun(String workflow, String instance) {
    DeleteRunRequest request = new DeleteRunRequest().setWorkflow(workflow).setInstance(instance);
    return call("deleteRun", Retry.ALWAYS, c -> c.delete_run(request).getDeleted());
  }

  /** Closes idle connections; connections in use close when their call ends. Idempotent. */
  @Override
  public void close() {
    closed.set(true);
    closeIdle();
  }

  private void closeIdle() {
    for (Connection c; (c = idle.poll()) != null; ) {
      c.close();
    }
  }

  // ---------------------------------------------------------------------------------------------------------

  /** Thrift cannot send a token without a name (a required field): say so as the master would. */
  private static void requireNames(List<Token> tokens, String method) {
    for (Token token : tokens) {
      if (token == null || token.name() == null) {
        throw TokenException.inputError(
            method
                + ": a token name is required (the request holds "
                + (token == null ? "a null token" : "a token without name")
                + ")");
      }
    }
  }

  /** What to do when an answer is lost after the request was sent. */
  private enum Retry {
    ALWAYS,
    UNLESS_CONFLICT,
    NEVER
  }

  @FunctionalInterface
  private interface ThriftCall<T> {
    T run(TokenMasterService.Client client) throws TException;
  }

  private <T> T call(String method, Retry retry, ThriftCall<T> call) {
    return call(method, retry, 0, call);
  }

  /**
   * {@code extraReadMillis}: how much longer than the socket time-out the answer may take (a
   * waiting claim).
   */
  private <T> T call(String method, Retry retry, long extraReadMillis, ThriftCall<T> call) {
    boolean sentOnce = false;
    for (int attempt = 1; ; attempt++) {
      Connection connection = borrow(method);
      Phase phase = new Phase();
      boolean waits = extraReadMillis > 0;
      try {
        connection.readTimeout(socketTimeout.toMillis() + extraReadMillis);
        if (waits) {
          waiting.add(connection);
          if (noWaits) {
            connection.cut(); // stopWaiting() came between the request was built and here
          }
        }
        T result = call.run(connection.tracking(phase));
        release(connection);
        return result;
      } catch (TokenMasterException e) {
        release(connection);
        TokenException error = WireMapping.fromWire(e);
        if (sentOnce
            && (error.errorCode() == TokenErrorCode.VERSION_CONFLICT
                || error.errorCode() == TokenErrorCode.NOT_FOUND)) {
          throw new TokenException(
              TokenErrorCode.UNKNOWN,
              "the connection to the master at "
                  + address()
                  + " broke after "
                  + method
                  + " was sent, and running it again failed with "
                  + error.errorCode()
                  + ": the first attempt may have applied, so the outcome is unknown; read the tokens again. ("
                  + error.getMessage()
                  + ")",
              error);
        }
        throw error;
      } catch (TApplicationException e) {
        release(connection);
        throw new TokenException(
            TokenErrorCode.UNKNOWN,
            "the master at " + address() + " rejected " + method + ": " + e.getMessage(),
            e);
      } catch (TException | RuntimeException e) {
        connection.close();
        if (connection.cut) {
          throw new WaitCut();
        }
        closeIdle(); // they most likely broke the same way (a master restart)
        if (closed.get()) {
          throw new TokenException(
              TokenErrorCode.UNKNOWN, "the token master client for " + address() + " is closed", e);
        }
        boolean sent = phase.sent;
        if (attempt >= 2 || (sent && retry == Retry.NEVER)) {
          throw new TokenException(
              TokenErrorCode.UNKNOWN,
              "the connection to the master at "
                  + address()
                  + " broke "
                  + (sent
                      ? "after "
                          + method
                          + " was sent, so its outcome is unknown"
                          + (retry == Retry.NEVER
                              ? " (claimed tokens, if any, become claimable again when their lease ends)"
                              : "")
                      : "before " + method + " could be sent (nothing was changed)")
                  + ": "
                  + e,
              e);
        }
        sentOnce |= sent;
        log.debug(
            "{} to {} failed ({}); trying once more on a new connection",
            method,
            address(),
            e.toString());
      } finally {
        if (waits) {
          waiting.remove(connection);
        }
      }
    }
  }

  private Connection borrow(String method) {
    if (closed.get()) {
      throw new TokenException(
          TokenErrorCode.UNKNOWN, "the token master client for " + address() + " is closed");
    }
    for (Connection pooled; (pooled = idle.pollFirst()) != null; ) {
      if (pooled.isUsable(checkAfterIdleNanos)) {
        return pooled;
      }
      pooled.close();
      closeIdle(); // the master closed this one; the others most likely too (a restart)
    }
    return connect(method);
  }

  private void release(Connection connection) {
    if (closed.get() || idle.size() >= maxIdleConnections) {
      connection.close();
    } else {
      connection.idleSince = System.nanoTime();
      idle.offerFirst(connection); // most recently used first: the rest can time out on the server
    }
  }

  private Connection connect(String method) {
    long start = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      try {
        return Connection.open(host, port, connectTimeout, socketTimeout, tls);
      } catch (TTransportException e) {
        if (attempt >= connectAttempts || closed.get() || e.getCause() instanceof SSLException) {
          throw new TokenException(
              TokenErrorCode.UNKNOWN,
              "cannot reach the token master at "
                  + address()
                  + " for "
                  + method
                  + " after "
                  + attempt
                  + " attempt(s) over "
                  + Duration.ofNanos(System.nanoTime() - start).toMillis()
                  + " ms (nothing was changed): "
                  + e.getMessage(),
              e);
        }
        Duration delay = backoff.delayAfter(attempt, ThreadLocalRandom.current()::nextDouble);
        log.info(
            "cannot reach the token master at {} ({}); attempt {} of {} in {} ms",
            address(),
            e.getMessage(),
            attempt + 1,
            connectAttempts,
            delay.toMillis());
        try {
          Thread.sleep(delay.toMillis());
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new TokenException(
              TokenErrorCode.UNKNOWN,
              "interrupted while reconnecting to the token master at " + address(),
              interrupted);
        }
      }
    }
  }

  /** A waiting claim that {@link #stopWaiting()} ended. */
  private static final class WaitCut extends RuntimeException {
    WaitCut() {
      super("the claim's wait was cut short", null, false, false);
    }
  }

  /** Whether the request left this process: set once the generated client's send_* returned. */
  private static final class Phase {
    boolean sent;
  }

  /** One socket and its generated client. Not thread-safe: used by one call at a time. */
  private static final class Connection {
    private final TSocket socket;
    private final PhaseTrackingClient client;
    long idleSince = System.nanoTime();
    volatile boolean cut;

    private Connection(TSocket socket) {
      this.socket = socket;
      this.client = new PhaseTrackingClient(new TBinaryProtocol(socket));
    }

    static Connection open(
        String host, int port, Duration connectTimeout, Duration socketTimeout, TlsIdentity tls)
        throws TTransportException {
      if (tls != null) {
        try {
          TSocket socket = new TSocket(tls.connect(host, port, (int) connectTimeout.toMillis()));
          socket.setSocketTimeout((int) socketTimeout.toMillis());
          return new Connection(socket);
        } catch (java.io.IOException e) {
          throw new TTransportException(TTransportException.NOT_OPEN, e.getMessage(), e);
        }
      }
      TSocket socket =
          new TSocket(
              new org.apache.thrift.TConfiguration(),
              host,
              port,
              (int) socketTimeout.toMillis(),
              (int) connectTimeout.toMillis());
      socket.open();
      return new Connection(socket);
    }

    /** Read time-out of the next call, capped at what a socket takes (about 24 days). */
    void readTimeout(long millis) {
      socket.setSocketTimeout((int) Math.min(millis, Integer.MAX_VALUE));
    }

    TokenMasterService.Client tracking(Phase phase) {
      client.phase = phase;
      return client;
    }

    /**
     * False if the master has closed the connection (say, it restarted while this one sat idle), so
     * that a call is not sent into a dead socket and left with an unknown outcome. Peeks with a 1
     * ms read: an idle connection has nothing to read, so a live one times out and a closed one
     * reads end-of-stream at once.
     */
    boolean isUsable(long checkAfterIdleNanos) {
      if (!socket.isOpen()) {
        return false;
      }
      if (System.nanoTime() - idleSince < checkAfterIdleNanos) {
        return true;
      }
      java.net.Socket raw = socket.getSocket();
      try {
        int timeout = raw.getSoTimeout();
        raw.setSoTimeout(1);
        try {
          raw.getInputStream()
              .read(); // end of stream, or a byte nobody asked for: unusable either way
          return false;
        } catch (java.net.SocketTimeoutException alive) {
          return true;
        } finally {
          raw.setSoTimeout(timeout);
        }
      } catch (java.io.IOException e) {
        return false;
      }
    }

    void close() {
      socket.close();
    }

    /** Ends the call on this connection from another thread: its blocked read fails at once. */
    void cut() {
      cut = true;
      socket.close();
    }
  }

  /** The generated client, noting when each request has been written and flushed. */
  private static final class PhaseTrackingClient extends TokenMasterService.Client {
    Phase phase;

    PhaseTrackingClient(TBinaryProtocol protocol) {
      super(protocol);
    }

    @Override
    protected void sendBase(String methodName, org.apache.thrift.TBase<?, ?> args)
        throws TException {
      super.sendBase(methodName, args);
      phase.sent = true;
    }
  }

  /** Settings of a {@link TokenMasterClient}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final String host;
    private final int port;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration socketTimeout = Duration.ofSeconds(60);
    private int connectAttempts = 10;
    private Duration initialBackoff = Duration.ofMillis(200);
    private Duration maxBackoff = Duration.ofSeconds(30);
    private int maxIdleConnections = 8;
    private Duration checkAfterIdle = Duration.ofSeconds(1);
    private TlsIdentity tls;

    private Builder(String host, int port) {
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
    }

    /** How long one connection attempt may take. Default 5 s. */
    public Builder connectTimeout(Duration value) {
      this.connectTimeout = Objects.requireNonNull(value, "connectTimeout");
      return this;
    }

    /**
     * How long to wait for an answer; then the connection counts as broken. A waiting queryAndOwn
     * adds its wait to this. Default 60 s.
     */
    public Builder socketTimeout(Duration value) {
      this.socketTimeout = Objects.requireNonNull(value, "socketTimeout");
      return this;
    }

    /**
     * Connection attempts per call before it fails with UNKNOWN. Default 10 (about 2 minutes with
     * defaults).
     */
    public Builder connectAttempts(int value) {
      this.connectAttempts = value;
      return this;
    }

    /**
     * Wait after the first failed attempt; doubles with each further one (±50% jitter). Default 200
     * ms.
     */
    public Builder initialBackoff(Duration value) {
      this.initialBackoff = Objects.requireNonNull(value, "initialBackoff");
      return this;
    }

    /** Longest wait between attempts. Default 30 s. */
    public Builder maxBackoff(Duration value) {
      this.maxBackoff = Objects.requireNonNull(value, "maxBackoff");
      return this;
    }

    /** Connections kept open between calls. Default 8. */
    public Builder maxIdleConnections(int value) {
      this.maxIdleConnections = value;
      return this;
    }

    /**
     * A pooled connection idle this long is checked (a read of up to 1 ms) before a call uses it,
     * so that calls after a master restart go to a new connection instead of failing. Default 1 s;
     * zero checks every time.
     */
    public Builder checkAfterIdle(Duration value) {
      this.checkAfterIdle = Objects.requireNonNull(value, "checkAfterIdle");
      return this;
    }

    /**
     * Connect with mutual TLS as this identity (a master started with {@code security.tls}).
     * Default none: plain Thrift, as Pinball's clients.
     */
    public Builder tls(TlsIdentity identity) {
      this.tls = Objects.requireNonNull(identity, "tls");
      return this;
    }

    public TokenMasterClient build() {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("master port is " + port + "; use 1 to 65535");
      }
      if (connectAttempts < 1) {
        throw new IllegalArgumentException(
            "connectAttempts is " + connectAttempts + "; it must be at least 1");
      }
      if (maxIdleConnections < 0) {
        throw new IllegalArgumentException(
            "maxIdleConnections is " + maxIdleConnections + "; it must be >= 0");
      }
      requirePositive(connectTimeout, "connectTimeout");
      requirePositive(socketTimeout, "socketTimeout");
      requirePositive(initialBackoff, "initialBackoff");
      if (checkAfterIdle.isNegative()) {
        throw new IllegalArgumentException(
            "checkAfterIdle is "
                + DurationText.format(checkAfterIdle)
                + "; it must not be negative");
      }
      if (maxBackoff.compareTo(initialBackoff) < 0) {
        throw new IllegalArgumentException(
            "maxBackoff ("
                + DurationText.format(maxBackoff)
                + ") is shorter than initialBackoff ("
                + DurationText.format(initialBackoff)
                + ")");
      }
      return new TokenMasterClient(this);
    }

    private static void requirePositive(Duration value, String name) {
      if (value.isNegative() || value.isZero() || value.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            name + " is " + DurationText.format(value) + "; it must be positive and below 24 days");
      }
    }
  }
}
