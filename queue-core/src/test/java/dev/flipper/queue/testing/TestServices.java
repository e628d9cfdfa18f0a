package dev.flipper.queue.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The services some tests need besides the JVM: MariaDB on 127.0.0.1:3306 (root, empty password)
 * and Redis on 127.0.0.1:6379. Those tests carry {@code @Tag("mariadb")} or {@code @Tag("redis")},
 * which {@code ./flipper test --unit} (Maven profile {@code unit}) leaves out; {@code ./flipper
 * test} starts both services first (scripts/ensure-services.sh) and runs everything. The test
 * helpers call {@link #requireMariaDb()} or {@link #requireRedis()} before they connect: a missing
 * service fails each of its tests at once with what to do (never skips it), instead of a pile of
 * driver errors. One probe per address and JVM.
 */
public final class TestServices {
  public static final String MARIADB_HOST = "127.0.0.1";
  public static final int MARIADB_PORT = 3306;
  public static final String REDIS_HOST = "127.0.0.1";
  public static final int REDIS_PORT = 6379;

  /** "" for a port that answered, else why it did not. */
  private static final Map<String, String> PROBES = new ConcurrentHashMap<>();

  private TestServices() {}

  public static void requireMariaDb() {
    require("MariaDB", MARIADB_HOST, MARIADB_PORT);
  }

  public static void requireRedis() {
    require("Redis", REDIS_HOST, REDIS_PORT);
  }

  private static void require(String service, String host, int port) {
    String failure = PROBES.computeIfAbsent(host + ":" + port, address -> probe(host, port));
    if (!failure.isEmpty()) {
      throw new AssertionError(
          service
              + " is not reachable on "
              + host
              + ":"
              + port
              + " ("
              + failure
              + "): run scripts/ensure-services.sh, or run the tests that need no service with ./flipper test --unit");
    }
  }

  private static String probe(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2_000);
      return "";
    } catch (IOException e) {
      return e.toString();
    }
  }
}
