package dev.flipper.queue.client.internal;

import dev.flipper.thrift.ServerAddress;
import dev.flipper.thrift.ServerSetFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers a client may use: a fixed list, or a server-set file re-read at most once per reload
 * interval (a file that became empty or unreadable keeps the previous list). Servers that refused a
 * connection are tried last for a few seconds. Thread-safe.
 */
final class ServerList {
  private static final Logger log = LoggerFactory.getLogger(ServerList.class);
  private static final long AVOID_NANOS = Duration.ofSeconds(5).toNanos();

  private final Path file;
  private final long reloadNanos;
  private volatile List<ServerAddress> servers;
  private volatile long checkedAtNanos;
  private final Map<ServerAddress, Long> avoidUntil = new ConcurrentHashMap<>();

  private ServerList(List<ServerAddress> servers, Path file, Duration reload) {
    this.servers = List.copyOf(servers);
    this.file = file;
    this.reloadNanos = reload.toNanos();
    this.checkedAtNanos = System.nanoTime();
  }

  static ServerList fixed(List<ServerAddress> servers) {
    return new ServerList(servers, null, Duration.ZERO);
  }

  /** Fails at once when the file cannot be read or lists no server. */
  static ServerList fromFile(Path file, Duration reload) {
    List<ServerAddress> servers = ServerSetFile.read(file);
    if (servers.isEmpty()) {
      throw new IllegalArgumentException(
          "server-set file " + file + " lists no server (one host:port per line)");
    }
    return new ServerList(servers, file, reload);
  }

  List<ServerAddress> current() {
    if (file != null && System.nanoTime() - checkedAtNanos > reloadNanos) {
      reload();
    }
    return servers;
  }

  /** Up to {@code attempts} servers to try in turn: random start, avoided servers last. */
  List<ServerAddress> plan(int attempts) {
    List<ServerAddress> all = current();
    int start = ThreadLocalRandom.current().nextInt(all.size());
    List<ServerAddress> preferred = new ArrayList<>();
    List<ServerAddress> avoided = new ArrayList<>();
    long now = System.nanoTime();
    for (int i = 0; i < all.size(); i++) {
      ServerAddress server = all.get((start + i) % all.size());
      Long until = avoidUntil.get(server);
      (until != null && until - now > 0 ? avoided : preferred).add(server);
    }
    preferred.addAll(avoided);
    List<ServerAddress> plan = new ArrayList<>(attempts);
    for (int i = 0; i < attempts; i++) {
      plan.add(preferred.get(i % preferred.size()));
    }
    return plan;
  }

  void connectFailed(ServerAddress server) {
    avoidUntil.put(server, System.nanoTime() + AVOID_NANOS);
  }

  void connected(ServerAddress server) {
    avoidUntil.remove(server);
  }

  private synchronized void reload() {
    if (System.nanoTime() - checkedAtNanos <= reloadNanos) {
      return;
    }
    checkedAtNanos = System.nanoTime();
    try {
      List<ServerAddress> next = ServerSetFile.read(file);
      if (next.isEmpty()) {
        log.warn("server-set file {} lists no server; keeping {}", file, servers);
      } else if (!next.equals(servers)) {
        log.info("server-set file {} now lists {}", file, next);
        servers = next;
      }
    } catch (RuntimeException e) {
      log.warn("cannot reload server-set file {} ({}); keeping {}", file, e.getMessage(), servers);
    }
  }
}
