package dev.flipper.thrift;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The connections a server holds, and who gets in when it is full: at most {@code maxConnections}
 * in all and {@code maxConnectionsPerPeer} from one peer address. A new connection at a limit
 * closes the longest-idle connection under that limit (of its own address at the per-peer limit, of
 * any address at the server's) and takes its place, so idle connections piled up by one host cannot
 * lock out a new caller, not even one from that host (the CLI beside a runaway script). It is
 * refused only when every connection under the limit is in a call. Thread-safe.
 *
 * @param <C> the server's connection type
 */
public final class ConnectionLimits<C extends ConnectionLimits.Connection> {
  /** What the limits need to know of a connection. */
  public interface Connection {
    /** The peer's address, fixed at accept. */
    InetAddress peer();

    /**
     * {@code System.nanoTime()} when it last finished a call (or was accepted), or {@link #BUSY}
     * while it reads a request or serves one.
     */
    long idleSinceNanos();

    /** Whether it is closed (safe to ask from any thread). */
    boolean closed();

    /** Ends it; its server then closes it as at end of stream. */
    void evict();
  }

  /** {@link Connection#idleSinceNanos()} of a connection in a call: it is never evicted. */
  public static final long BUSY = Long.MIN_VALUE;

  private final int maxConnections;
  private final int maxConnectionsPerPeer;
  private final ConnectionRefusals refusals;
  private final Consumer<String> evictions;
  private final Set<C> open = ConcurrentHashMap.newKeySet();

  /**
   * @param refusals counts and logs the connections refused
   * @param evictions counts one idle connection closed for a new one, by the limit that was reached
   *     (server_limit, per_peer_limit)
   */
  public ConnectionLimits(
      int maxConnections,
      int maxConnectionsPerPeer,
      ConnectionRefusals refusals,
      Consumer<String> evictions) {
    this.maxConnections = maxConnections;
    this.maxConnectionsPerPeer = maxConnectionsPerPeer;
    this.refusals = refusals;
    this.evictions = evictions;
  }

  /**
   * Admits a new connection, evicting the longest-idle one under a limit it reaches; false (it is
   * refused, the caller closes it) when every connection under that limit is busy.
   */
  public synchronized boolean admit(C connection) {
    open.removeIf(Connection::closed);
    InetAddress peer = connection.peer();
    List<C> fromPeer = new ArrayList<>();
    for (C c : open) {
      if (c.peer().equals(peer)) {
        fromPeer.add(c);
      }
    }
    if ((fromPeer.size() >= maxConnectionsPerPeer
            && !evictLongestIdle(fromPeer, "per_peer_limit", peer))
        || (open.size() >= maxConnections && !evictLongestIdle(open, "server_limit", peer))) {
      return false;
    }
    open.add(connection);
    return true;
  }

  private boolean evictLongestIdle(Iterable<C> candidates, String limit, InetAddress newPeer) {
    C longestIdle = null;
    long longestIdleSince = 0;
    for (C c : candidates) {
      long idleSince = c.idleSinceNanos();
      if (idleSince != BUSY && (longestIdle == null || idleSince - longestIdleSince < 0)) {
        longestIdle = c;
        longestIdleSince = idleSince;
      }
    }
    if (longestIdle == null) {
      refusals.refuse(limit, newPeer, open.size());
      return false;
    }
    open.remove(longestIdle);
    longestIdle.evict();
    evictions.accept(limit);
    return true;
  }

  /** Forgets a connection the server ended itself. */
  public void remove(C connection) {
    open.remove(connection);
  }

  /** The open connections now (a copy). */
  public List<C> open() {
    open.removeIf(Connection::closed);
    return new ArrayList<>(open);
  }

  /** How many connections are open. */
  public int count() {
    open.removeIf(Connection::closed);
    return open.size();
  }
}
