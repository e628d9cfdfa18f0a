package dev.flipper.queue.server.internal;

import dev.flipper.thrift.ConnectionRefusals;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TNonblockingSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * The queue server's listening socket with connection limits: a new connection is closed at once when the server
 * holds {@code maxConnections} or its peer address {@code maxConnectionsPerPeer} (the open ones go on being
 * served), and {@link #closeIdle()} ends connections that sent nothing for the idle timeout. libthrift's selector
 * server has neither. Thread-safe: the accept thread, the selector threads and the timer use it.
 */
public final class GuardedServerSocket extends TNonblockingServerSocket {
  private final int maxConnections;
  private final int maxConnectionsPerPeer;
  private final long idleNanos;
  private final ConnectionRefusals refusals;
  private final Set<TrackedSocket> open = ConcurrentHashMap.newKeySet();

  public GuardedServerSocket(NonblockingAbstractServerSocketArgs args, int maxConnections, int maxConnectionsPerPeer,
      Duration idleTimeout, ConnectionRefusals refusals) throws TTransportException {
    super(args);
    this.maxConnections = maxConnections;
    this.maxConnectionsPerPeer = maxConnectionsPerPeer;
    this.idleNanos = idleTimeout.toNanos();
    this.refusals = refusals;
  }

  @Override
  public TNonblockingSocket accept() throws TTransportException {
    TNonblockingSocket accepted = super.accept();
    if (accepted == null) {
      return null;
    }
    open.removeIf(s -> !s.getSocketChannel().isOpen());
    InetAddress peer = accepted.getSocketChannel().socket().getInetAddress();
    String refusal = refusal(peer);
    if (refusal != null) {
      accepted.close();
      refusals.refuse(refusal, peer, open.size());
      return null;
    }
    try {
      TrackedSocket tracked = new TrackedSocket(accepted.getSocketChannel(), peer);
      tracked.setMaxFrameSize(accepted.getMaxFrameSize());
      open.add(tracked);
      return tracked;
    } catch (IOException e) {
      accepted.close();
      return null;
    }
  }

  /** Open connections. */
  public int connectionCount() {
    open.removeIf(s -> !s.getSocketChannel().isOpen());
    return open.size();
  }

  /**
   * Ends the connections that sent and received nothing for the idle timeout. It shuts their input down rather
   * than closing them: the selector thread then reads end of stream and closes the connection itself, releasing
   * what it held for a partly read frame.
   */
  public void closeIdle() {
    long now = System.nanoTime();
    for (TrackedSocket socket : open) {
      if (!socket.getSocketChannel().isOpen()) {
        open.remove(socket);
      } else if (now - socket.lastActivityNanos > idleNanos) {
        open.remove(socket);
        try {
          socket.getSocketChannel().shutdownInput();
        } catch (IOException e) {
          socket.close();
        }
      }
    }
  }

  private String refusal(InetAddress peer) {
    if (open.size() >= maxConnections) {
      return "server_limit";
    }
    long fromPeer = open.stream().filter(s -> s.peer.equals(peer)).count();
    return fromPeer >= maxConnectionsPerPeer ? "per_peer_limit" : null;
  }

  /** A connection that remembers when it last moved bytes. */
  private static final class TrackedSocket extends TNonblockingSocket {
    private final InetAddress peer;
    private volatile long lastActivityNanos = System.nanoTime();

    TrackedSocket(SocketChannel channel, InetAddress peer) throws IOException, TTransportException {
      super(channel);
      this.peer = peer;
    }

    @Override
    public int read(ByteBuffer buffer) throws TTransportException {
      int read = super.read(buffer);
      if (read > 0) {
        lastActivityNanos = System.nanoTime();
      }
      return read;
    }

    @Override
    public int write(ByteBuffer buffer) throws TTransportException {
      int written = super.write(buffer);
      if (written > 0) {
        lastActivityNanos = System.nanoTime();
      }
      return written;
    }
  }
}
