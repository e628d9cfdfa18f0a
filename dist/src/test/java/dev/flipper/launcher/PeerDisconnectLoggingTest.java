package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.Query;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master in its own JVM, whose clients reset their connections (as a killed client does): nothing
 * is logged for them, while the master keeps serving.
 */
@Tag("processes")
class PeerDisconnectLoggingTest {
  private static final Pattern THRIFT_PORT =
      Pattern.compile("flipper: master ready, .*thrift port (\\d+)");

  @TempDir Path dir;

  @Test
  void clientsThatResetTheirConnectionAreNotLogged() throws Exception {
    Path config =
        Files.writeString(dir.resolve("flipper.yaml"), "master:\n  port: 0\n  adminPort: 0\n");
    try (FlipperProcess master =
        FlipperProcess.start(dir, "-c", config.toString(), "-m", "master")) {
      master.awaitReady(List.of("master"));
      int port =
          master.out().stream()
              .map(THRIFT_PORT::matcher)
              .filter(Matcher::find)
              .mapToInt(m -> Integer.parseInt(m.group(1)))
              .findFirst()
              .orElseThrow();

      for (int i = 0; i < 3; i++) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
          socket.setSoLinger(true, 0); // close sends a reset, as when the client's process dies
          OutputStream out = socket.getOutputStream();
          out.write(new byte[] {(byte) 0x80, 1, 0}); // half a request
          out.flush();
        }
      }
      try (TokenMasterClient client = TokenMasterClient.builder("127.0.0.1", port).build()) {
        assertThat(client.query(List.of(Query.prefix("/")))).hasSize(1); // served after the resets
      }
      master.sigterm();

      assertThat(master.awaitExit(Duration.ofSeconds(60))).as(master.output()).isZero();
      assertThat(master.output()).doesNotContain("Connection reset").doesNotContain(" WARN ");
    }
  }
}
