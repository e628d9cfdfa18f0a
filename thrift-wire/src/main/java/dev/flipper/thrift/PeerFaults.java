package dev.flipper.thrift;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connections a server closed (or frames it refused) because of what their peer sent: garbage, an
 * oversized or stalled frame, a malformed call. Each costs a counter; the log gets one summary line
 * a minute at most, with the counts by reason and the last peer, never a stack trace: 100,000 bad
 * inputs must not become 100,000 log lines. Thread-safe.
 */
public final class PeerFaults {
  private static final Logger log = LoggerFactory.getLogger(PeerFaults.class);
  private static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final String server;
  private final Consumer<String> count;
  private final Map<String, Long> unlogged = new TreeMap<>();
  private long nextLogNanos = System.nanoTime();

  /**
   * @param server the server in the log line, e.g. "queue server"
   * @param count counts one fault for a reason (the server's metric)
   */
  public PeerFaults(String server, Consumer<String> count) {
    this.server = server;
    this.count = count;
  }

  /**
   * One fault of {@code reason} (a metric label such as frame_too_large), from {@code peer}
   * (address and port; may be null).
   */
  public void fault(String reason, InetSocketAddress peer, String detail) {
    count.accept(reason);
    String line;
    synchronized (this) {
      unlogged.merge(reason, 1L, Long::sum);
      long now = System.nanoTime();
      if (now - nextLogNanos < 0) {
        return;
      }
      nextLogNanos = now + LOG_EVERY_NANOS;
      line = unlogged.toString();
      unlogged.clear();
    }
    log.warn(
        "{} closed connections or refused frames of misbehaving peers: {} (last: {} from {}: {}). Next such "
            + "line in 1 min at the earliest",
        server,
        line,
        reason,
        peer == null ? "?" : peer.getAddress().getHostAddress() + ":" + peer.getPort(),
        detail);
  }
}
