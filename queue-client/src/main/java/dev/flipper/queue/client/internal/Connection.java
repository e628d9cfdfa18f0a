package dev.flipper.queue.client.internal;

import dev.flipper.queue.thrift.PinLater;
import dev.flipper.thrift.ServerAddress;
import dev.flipper.tls.TlsIdentity;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * One framed binary Thrift connection to a server. Used by one thread at a time (the pool ensures
 * it).
 */
final class Connection {
  private final ServerAddress server;
  private final TSocket socket;
  private final TFramedTransport transport;
  private final PinLater.Client api;
  private long idleSinceNanos = System.nanoTime();

  private Connection(ServerAddress server, TSocket socket, TFramedTransport transport) {
    this.server = server;
    this.socket = socket;
    this.transport = transport;
    this.api = new PinLater.Client(new TBinaryProtocol(transport));
  }

  /**
   * Connects, with mutual TLS as {@code tls} unless it is null; throws TTransportException when the
   * server cannot be reached within the time-out or the TLS handshake fails (the message says why).
   */
  static Connection open(
      ServerAddress server, Duration connectTimeout, int maxFrameBytes, TlsIdentity tls)
      throws TTransportException {
    TConfiguration configuration = TConfiguration.custom().setMaxFrameSize(maxFrameBytes).build();
    int timeoutMillis = (int) connectTimeout.toMillis();
    TSocket socket;
    if (tls == null) {
      socket = new TSocket(configuration, server.host(), server.port(), 0, timeoutMillis);
    } else {
      try {
        socket = new TSocket(tls.connect(server.host(), server.port(), timeoutMillis));
      } catch (IOException e) {
        throw new TTransportException(TTransportException.NOT_OPEN, e.getMessage(), e);
      }
    }
    TFramedTransport transport = new TFramedTransport(socket, maxFrameBytes);
    if (!transport.isOpen()) {
      transport.open();
    }
    return new Connection(server, socket, transport);
  }

  ServerAddress server() {
    return server;
  }

  PinLater.Client api(Duration requestTimeout) {
    socket.setTimeout((int) Math.min(Integer.MAX_VALUE, requestTimeout.toMillis()));
    return api;
  }

  void markIdle() {
    idleSinceNanos = System.nanoTime();
  }

  long idleNanos() {
    return System.nanoTime() - idleSinceNanos;
  }

  /**
   * Detects a connection the server has closed while it sat in the pool, so a request is not sent
   * into it (a non-idempotent request could not be retried after that). Costs at most one
   * millisecond.
   */
  boolean looksAlive() {
    Socket raw = socket.getSocket();
    if (raw == null || raw.isClosed() || !raw.isConnected() || raw.isInputShutdown()) {
      return false;
    }
    try {
      int timeout = raw.getSoTimeout();
      raw.setSoTimeout(1);
      try {
        raw.getInputStream()
            .read(); // end of stream, or a byte nobody asked for: unusable either way
        return false;
      } catch (SocketTimeoutException expected) {
        return true;
      } finally {
        raw.setSoTimeout(timeout);
      }
    } catch (IOException e) {
      return false;
    }
  }

  void close() {
    transport.close();
  }
}
