package dev.flipper.queue.client.internal;

import dev.flipper.queue.client.QueueUnavailableException;
import dev.flipper.thrift.ServerAddress;
import dev.flipper.tls.TlsIdentity;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.apache.thrift.transport.TTransportException;

/**
 * The connections to one server: at most {@code maxConnections} at a time, idle ones reused most
 * recent first. Thread-safe.
 */
final class ConnectionPool {
  /** A pooled connection idle this long is probed before use. */
  private static final long PROBE_AFTER_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final ServerAddress server;
  private final int maxConnections;
  private final Duration connectTimeout;
  private final int maxFrameBytes;
  private final TlsIdentity tls;
  private final Semaphore permits;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
  private volatile boolean closed;

  ConnectionPool(
      ServerAddress server,
      int maxConnections,
      Duration connectTimeout,
      int maxFrameBytes,
      TlsIdentity tls) {
    this.tls = tls;
    this.server = server;
    this.maxConnections = maxConnections;
    this.connectTimeout = connectTimeout;
    this.maxFrameBytes = maxFrameBytes;
    this.permits = new Semaphore(maxConnections, true);
  }

  /**
   * A connection for one call; give it back with {@link #release}. Throws QueueUnavailableException
   * (nothing sent) when connecting fails or every connection stays busy for {@code wait}.
   */
  Connection borrow(Duration wait) {
    try {
      if (!permits.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new QueueUnavailableException(
            "all "
                + maxConnections
                + " connections to "
                + server
                + " stayed busy for "
                + wait.toMillis()
                + " ms; raise maxConnectionsPerServer or add servers",
            false,
            null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueUnavailableException(
          "interrupted while waiting for a connection to " + server, false, e);
    }
    try {
      Connection connection;
      while ((connection = idle.pollFirst()) != null) {
        if (connection.idleNanos() < PROBE_AFTER_IDLE_NANOS || connection.looksAlive()) {
          return connection;
        }
        connection.close();
      }
      return Connection.open(server, connectTimeout, maxFrameBytes, tls);
    } catch (TTransportException e) {
      permits.release();
      if (e.getCause() instanceof SSLException tlsFailure) {
        throw new QueueUnavailableException(
            "cannot connect to queue server " + server + ": " + tlsFailure.getMessage(), false, e);
      }
      throw new QueueUnavailableException(
          "cannot connect to queue server "
              + server
              + " within "
              + connectTimeout.toMillis()
              + " ms: "
              + rootMessage(e),
          false,
          e);
    } catch (RuntimeException e) {
      permits.release();
      throw e;
    }
  }

  /** Returns a connection; one whose state is unknown (a failed call) is closed instead. */
  void release(Connection connection, boolean reusable) {
    try {
      if (reusable && !closed) {
        connection.markIdle();
        idle.addFirst(connection);
      } else {
        connection.close();
      }
    } finally {
      permits.release();
    }
    if (closed) {
      closeIdle();
    }
  }

  void close() {
    closed = true;
    closeIdle();
  }

  private void closeIdle() {
    Connection connection;
    while ((connection = idle.pollFirst()) != null) {
      connection.close();
    }
  }

  private static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.toString();
  }
}
