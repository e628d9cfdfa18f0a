package dev.flipper.queue.server.internal;

import dev.flipper.thrift.ConnectionLimits;
import dev.flipper.thrift.ConnectionRefusals;
import dev.flipper.thrift.PeerFaults;
import dev.flipper.tls.TlsIdentity;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TNonblockingSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * The queue server's listening socket with connection limits ({@link ConnectionLimits}): a new
 * connection when the server holds {@code maxConnections} or its peer address {@code
 * maxConnectionsPerPeer} closes the longest-idle connection under that limit, and is closed at once
 * only when all of them are in a call (the open ones go on being served). Each connection reads its
 * frames through a {@link GatedSocket} (frame limit, shared read budget), and {@link #closeIdle()}
 * ends connections that moved nothing for the idle timeout or have been reading one frame for
 * longer than the frame-read timeout (a peer trickling a byte at a time, or a TLS handshake that
 * does not finish). With a {@link TlsIdentity} every connection speaks mutual TLS. libthrift's
 * selector server has none of this. Thread-safe: the accept thread, the selector threads and the
 * timer use it.
 */
public final class GuardedServerSocket extends TNonblockingServerSocket {
  private final long idleNanos;
  private final long frameReadNanos;
  private final FrameRules rules;
  private final ConnectionLimits<GatedSocket> open;
  private final TlsIdentity tls;

  /**
   * @param readBudgetBytes memory for large request frames of all connections together (see {@link
   *     ReadBudget})
   * @param faults where refused frames and closed misbehaving connections are counted
   * @param evictions counts idle connections closed for new ones, by limit reached
   * @param tls the server's TLS identity; null: plain Thrift
   */
  public GuardedServerSocket(
      NonblockingAbstractServerSocketArgs args,
      int maxFrameBytes,
      long readBudgetBytes,
      int maxConnections,
      int maxConnectionsPerPeer,
      Duration idleTimeout,
      Duration frameReadTimeout,
      ConnectionRefusals refusals,
      Consumer<String> evictions,
      PeerFaults faults,
      TlsIdentity tls)
      throws TTransportException {
    super(args.maxFrameSize(maxFrameBytes));
    this.open = new ConnectionLimits<>(maxConnections, maxConnectionsPerPeer, refusals, evictions);
    this.idleNanos = idleTimeout.toNanos();
    this.frameReadNanos = frameReadTimeout.toNanos();
    this.rules =
        new FrameRules(
            maxFrameBytes, new ReadBudget(readBudgetBytes), faults, EnqueueRefusal.INSTANCE);
    this.tls = tls;
  }

  @Override
  public TNonblockingSocket accept() throws TTransportException {
    TNonblockingSocket accepted = super.accept();
    if (accepted == null) {
      return null;
    }
    InetAddress peer = accepted.getSocketChannel().socket().getInetAddress();
    try {
      GatedSocket gated = new GatedSocket(accepted.getSocketChannel(), peer, rules, tls);
      if (open.admit(gated)) {
        return gated;
      }
      accepted.close();
      return null;
    } catch (IOException e) {
      accepted.close();
      return null;
    }
  }

  /** Open connections. */
  public int connectionCount() {
    return open.count();
  }

  /** Bytes of large request frames held now (see {@link ReadBudget}). */
  public long readBudgetHeld() {
    return rules.budget().heldBytes();
  }

  /**
   * Ends the connections that sent and received nothing for the idle timeout, and those reading one
   * frame for longer than the frame-read timeout. It shuts their input down rather than closing
   * them: the selector thread then reads end of stream and closes the connection itself, releasing
   * what it held for a partly read frame.
   */
  public void closeIdle() {
    long now = System.nanoTime();
    for (GatedSocket socket : open.open()) {
      long frameStart = socket.frameStartNanos();
      if (now - socket.lastActivityNanos() > idleNanos) {
        end(socket);
      } else if (frameStart != 0 && now - frameStart > frameReadNanos) {
        rules
            .faults()
            .fault(
                "frame_read_timeout",
                socket.remote(),
                "a frame still incomplete after " + Duration.ofNanos(frameReadNanos));
        end(socket);
      }
    }
  }

  private void end(GatedSocket socket) {
    open.remove(socket);
    socket.evict();
  }
}
