package dev.flipper.thrift;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts connections a server closed at once because it or their peer was at its connection limit,
 * and says so in one log line a minute at most: a flood of connections must not become a flood of
 * log lines. Thread-safe.
 */
public final class ConnectionRefusals {
  private static final Logger log = LoggerFactory.getLogger(ConnectionRefusals.class);
  private static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final String server;
  private final Consumer<String> count;
  private final AtomicLong unlogged = new AtomicLong();
  private final AtomicLong nextLogNanos = new AtomicLong(System.nanoTime());

  /**
   * @param server the server in the log line, e.g. "token master"
   * @param count counts one refusal for a reason (the server's metric)
   */
  public ConnectionRefusals(String server, Consumer<String> count) {
    this.server = server;
    this.count = count;
  }

  /** One connection refused for {@code reason} (a metric label: server_limit, per_peer_limit). */
  public void refuse(String reason, InetAddress peer, int openConnections) {
    count.accept(reason);
    long refused = unlogged.incrementAndGet();
    long next = nextLogNanos.get();
    long now = System.nanoTime();
    if (now - next >= 0 && nextLogNanos.compareAndSet(next, now + LOG_EVERY_NANOS)) {
      unlogged.addAndGet(-refused);
      log.warn(
          "{} refused {} new connection(s) at its connection limits ({} open; last: {} from {}); "
              + "connections already open are still served. Next such line in 1 min at the earliest",
          server,
          refused,
          openConnections,
          reason.replace('_', ' '),
          peer == null ? "?" : peer.getHostAddress());
    }
  }
}
