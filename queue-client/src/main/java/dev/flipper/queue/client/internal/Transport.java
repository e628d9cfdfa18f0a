package dev.flipper.queue.client.internal;

import dev.flipper.queue.client.QueueClientException;
import dev.flipper.queue.client.QueueUnavailableException;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.queue.wire.WireMapping;
import dev.flipper.thrift.ServerAddress;
import dev.flipper.tls.TlsIdentity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;

/**
 * Runs Thrift calls against the servers: picks a server, borrows a pooled connection, maps failures
 * to {@link QueueClientException}s and retries where that is safe. Thread-safe.
 */
public final class Transport implements AutoCloseable {
  /** When a failed call may be repeated (on another server). */
  public enum Retry {
    /** Only when connecting failed, i.e. nothing was sent. Safe for every call. */
    IF_NOT_SENT,
    /** Also after the request was sent: for calls that change nothing or are idempotent. */
    ALWAYS
  }

  /** One Thrift call on a connection. */
  public interface Call<T> {
    T run(PinLater.Client api) throws TException;
  }

  private final ServerList servers;
  private final Map<ServerAddress, ConnectionPool> pools = new ConcurrentHashMap<>();
  private final int maxConnectionsPerServer;
  private final Duration connectTimeout;
  private final int maxFrameBytes;
  private final int maxAttempts;
  private final TlsIdentity tls;
  private volatile boolean closed;

  private Transport(
      ServerList servers,
      int maxConnectionsPerServer,
      Duration connectTimeout,
      int maxFrameBytes,
      int maxAttempts,
      TlsIdentity tls) {
    this.tls = tls;
    this.servers = servers;
    this.maxConnectionsPerServer = maxConnectionsPerServer;
    this.connectTimeout = connectTimeout;
    this.maxFrameBytes = maxFrameBytes;
    this.maxAttempts = maxAttempts;
  }

  public static Transport fixed(
      List<ServerAddress> servers,
      int maxConnectionsPerServer,
      Duration connectTimeout,
      int maxFrameBytes,
      int maxAttempts,
      TlsIdentity tls) {
    return new Transport(
        ServerList.fixed(servers),
        maxConnectionsPerServer,
        connectTimeout,
        maxFrameBytes,
        maxAttempts,
        tls);
  }

  public static Transport serverSet(
      Path file,
      Duration reload,
      int maxConnectionsPerServer,
      Duration connectTimeout,
      int maxFrameBytes,
      int maxAttempts,
      TlsIdentity tls) {
    return new Transport(
        ServerList.fromFile(file, reload),
        maxConnectionsPerServer,
        connectTimeout,
        maxFrameBytes,
        maxAttempts,
        tls);
  }

  public List<ServerAddress> servers() {
    return servers.current();
  }

  public <T> T call(String method, Retry retry, Duration timeout, Call<T> call) {
    if (closed) {
      throw new IllegalStateException("the queue client is closed");
    }
    QueueUnavailableException last = null;
    for (ServerAddress server : servers.plan(maxAttempts)) {
      ConnectionPool pool = pool(server);
      Connection connection;
      try {
        connection = pool.borrow(timeout);
        servers.connected(server);
      } catch (QueueUnavailableException e) {
        servers.connectFailed(server);
        last = e;
        continue;
      }
      boolean reusable = false;
      try {
        T result = call.run(connection.api(timeout));
        reusable = true;
        return result;
      } catch (PinLaterException e) {
        reusable = true;
        throw new QueueClientException(WireMapping.fromThrift(e.getErrorCode()), e.getMessage(), e);
      } catch (TApplicationException e) {
        reusable = true;
        throw new QueueClientException(
            dev.flipper.queue.ErrorCode.UNKNOWN,
            "server "
                + server
                + " rejected "
                + method
                + ": "
                + e.getMessage()
                + " (Thrift error type "
                + e.getType()
                + ")",
            e);
      } catch (TException e) {
        last =
            new QueueUnavailableException(
                method
                    + " to "
                    + server
                    + " failed after the request was sent ("
                    + e
                    + "); it may or may not have been applied",
                true,
                e);
        if (retry != Retry.ALWAYS) {
          throw last;
        }
      } finally {
        pool.release(connection, reusable);
      }
    }
    throw new QueueUnavailableException(
        method
            + " failed on every attempt ("
            + maxAttempts
            + "): "
            + (last == null ? "no server" : last.getMessage()),
        last != null && last.mayHaveBeenApplied(),
        last);
  }

  private ConnectionPool pool(ServerAddress server) {
    ConnectionPool pool =
        pools.computeIfAbsent(
            server,
            s ->
                new ConnectionPool(s, maxConnectionsPerServer, connectTimeout, maxFrameBytes, tls));
    if (pools.size() > servers.current().size()) {
      retireRemovedServers();
    }
    return pool;
  }

  private void retireRemovedServers() {
    Set<ServerAddress> live = new HashSet<>(servers.current());
    pools
        .entrySet()
        .removeIf(
            entry -> {
              if (live.contains(entry.getKey())) {
                return false;
              }
              entry.getValue().close();
              return true;
            });
  }

  @Override
  public void close() {
    closed = true;
    for (ConnectionPool pool : pools.values()) {
      pool.close();
    }
    pools.clear();
  }
}
