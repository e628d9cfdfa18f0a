package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded H2 database's AUTO_SERVER port listens on loopback only. A separate launcher
 * process, because H2 reads its bind address once per JVM: the test JVM may have loaded H2 before.
 */
@Tag("processes")
class EmbeddedH2Test {
  private static final Path PROC_NET = Path.of("/proc/net");

  @TempDir Path dir;

  @Test
  void autoServerPortListensOnLoopbackOnly() throws Exception {
    Path database = dir.resolve("data").resolve("flipper");
    Path config = dir.resolve("conf.yaml");
    Files.writeString(
        config,
        """
        storage:
          jdbc:
            shards: [{name: "1", url: "jdbc:h2:file:%s;MODE=MySQL;AUTO_SERVER=TRUE"}]
        queue: {port: 0, adminPort: 0}
        """
            .formatted(database.toAbsolutePath()));
    try (FlipperProcess flipper =
        FlipperProcess.start(dir, "-c", config.toString(), "-m", "queue")) {
      flipper.awaitReady(List.of("queue"));

      // The lock file tells other processes where the server is; it names a loopback address.
      Properties lock = new Properties();
      try (Reader reader =
          Files.newBufferedReader(dir.resolve("data").resolve("flipper.lock.db"))) {
        lock.load(reader);
      }
      String server = lock.getProperty("server");
      assertThat(server).as("server in the lock file").matches("(localhost|127\\.0\\.0\\.1):\\d+");
      int port = Integer.parseInt(server.substring(server.lastIndexOf(':') + 1));

      // The listening socket itself: /proc/net/tcp lists 127.0.0.1 as 0100007F, /proc/net/tcp6
      // (Java's dual-stack
      // sockets) as ::ffff:127.0.0.1; a socket on every interface would show zeros.
      assumeThat(Files.isReadable(PROC_NET.resolve("tcp"))).as("Linux /proc/net/tcp").isTrue();
      assertThat(listeningAddresses(port))
          .as("local addresses listening on port " + port)
          .isNotEmpty()
          .allMatch(
              address ->
                  address.equals("0100007F") || address.equals("0000000000000000FFFF00000100007F"));

      flipper.sigterm();
      assertThat(flipper.awaitExit(Duration.ofSeconds(30))).as(flipper.output()).isZero();
    }
  }

  /** Hex local addresses of the IPv4 and IPv6 sockets in state LISTEN (0A) on {@code port}. */
  private static List<String> listeningAddresses(int port) throws IOException {
    String portHex = String.format(Locale.ROOT, "%04X", port);
    List<String> addresses = new ArrayList<>();
    for (String table : List.of("tcp", "tcp6")) {
      Path file = PROC_NET.resolve(table);
      if (!Files.isReadable(file)) {
        continue;
      }
      Files.readAllLines(file).stream()
          .skip(1)
          .map(line -> line.strip().split("\\s+"))
          .filter(fields -> fields[3].equals("0A") && fields[1].endsWith(":" + portHex))
          .map(fields -> fields[1].substring(0, fields[1].indexOf(':')))
          .forEach(addresses::add);
    }
    return addresses;
  }
}
