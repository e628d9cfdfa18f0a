package dev.flipper.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * MariaDB on 127.0.0.1:3306 and Redis on 127.0.0.1:6379 for this module's tests tagged {@code
 * mariadb} or {@code redis} (which {@code ./flipper test --unit} leaves out): a missing service
 * fails each of them at once with what to do, never skips it. The same check as queue-core's test
 * jar has, which this module does not depend on. One probe per address and JVM.
 */
final class TestServices {
  private static final Map<String, String> PROBES = new ConcurrentHashMap<>();

  private TestServices() {}

  static void requireMariaDb() {
    require("MariaDB", "127.0.0.1", 3306);
  }

  static void requireRedis() {
    require("Redis", "127.0.0.1", 6379);
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
