package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every daemon's ports (service and admin) listen on the configured address and nowhere else.
 * 127.0.0.1 and 127.0.0.2 are both this machine (Linux routes all of 127/8 to loopback) but
 * distinct addresses, so a port bound to one refuses connections to the other.
 */
class BindAddressTest {
  @TempDir Path dir;

  private ModeRunner start(String... sets) throws Exception {
    ModeRunner runner = runner(sets);
    runner.start(List.of(Mode.values()));
    return runner;
  }

  private ModeRunner runner(String... sets) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "storage.jdbc.shards=[{name: '1', url: 'jdbc:h2:file:"
                    + dir.resolve("flipper")
                    + ";MODE=MySQL'}]",
                "queue.port=0",
                "master.port=0",
                "ui.port=0",
                "queue.adminPort=0",
                "master.adminPort=0",
                "scheduler.adminPort=0",
                "workers.adminPort=0",
                "ui.adminPort=0"));
    all.addAll(List.of(sets));
    FlipperConfig config = ConfigLoader.defaults(all, Map.of());
    return new ModeRunner(config, new PrintWriter(new StringWriter()));
  }

  @Test
  void theUiOnTheWildcardAddressWithoutSignInRefusesToStart() {
    ModeRunner runner = runner("network.bindAddress=0.0.0.0", "security.insecure=true");
    try {
      assertThatThrownBy(() -> runner.start(List.of(Mode.UI)))
          .isInstanceOf(ModeRunner.ModeStartException.class)
          .hasStackTraceContaining("without sign-in")
          .hasStackTraceContaining("ui.allowAnonymous: true");
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }

  @Test
  void withoutTlsNoModeListensBeyondLoopbackUnlessTheNetworkIsDeclaredTrusted() {
    for (Mode mode : Mode.values()) {
      ModeRunner runner = runner("network.bindAddress=0.0.0.0", "ui.allowAnonymous=true");
      try {
        assertThatThrownBy(() -> runner.start(List.of(mode)))
            .as(mode.modeName())
            .isInstanceOf(ModeRunner.ModeStartException.class)
            .hasMessageContaining(mode.modeName() + " would listen on 0.0.0.0 without TLS")
            .hasMessageContaining("security.insecure: true");
        assertThat(runner.running()).isEmpty();
      } finally {
        assertThat(runner.closeAll()).isTrue();
      }
    }
  }

  @Test
  void byDefaultEveryPortListensOnLoopbackOnly() throws Exception {
    ModeRunner runner = start();
    try {
      assertEveryPortListensOn(runner, "127.0.0.1", "127.0.0.2");
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }

  @Test
  void theSharedAddressMovesEveryDaemonAndASectionCanDiffer() throws Exception {
    ModeRunner runner = start("network.bindAddress=127.0.0.2", "queue.bindAddress=127.0.0.1");
    try {
      ModeRunner.Running queue = runner.running().get(0);
      assertThat(queue.mode()).isEqualTo(Mode.QUEUE);
      assertListensOn(queue, "127.0.0.1", "127.0.0.2");
      for (ModeRunner.Running r : runner.running().subList(1, runner.running().size())) {
        assertListensOn(r, "127.0.0.2", "127.0.0.1");
        assertThat(r.adminUrl()).startsWith("http://127.0.0.2:");
      }
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }

  @Test
  void theWildcardAddressIsPrintedAsLoopback() throws Exception {
    ModeRunner runner =
        start("network.bindAddress=0.0.0.0", "ui.allowAnonymous=true", "security.insecure=true");
    try {
      for (ModeRunner.Running r : runner.running()) {
        assertThat(r.adminUrl()).startsWith("http://127.0.0.1:");
        assertThat(accepts("127.0.0.2", r.admin().port()))
            .as(r.mode() + " admin on every interface")
            .isTrue();
      }
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }

  private static void assertEveryPortListensOn(
      ModeRunner runner, String address, String otherAddress) {
    assertThat(runner.running()).hasSize(Mode.values().length);
    for (ModeRunner.Running r : runner.running()) {
      assertListensOn(r, address, otherAddress);
    }
  }

  private static void assertListensOn(ModeRunner.Running r, String address, String otherAddress) {
    List<Integer> ports = new ArrayList<>();
    ports.add(r.admin().port());
    for (String endpoint : r.daemon().endpoints()) {
      // "thrift port 9010", or a URL such as the workers' "logs http://127.0.0.1:9093/logs/"
      ports.add(
          Integer.parseInt(endpoint.replaceAll(".* port (\\d+)$|.*://[^/]*:(\\d+)/.*", "$1$2")));
    }
    for (int port : ports) {
      assertThat(accepts(address, port)).as(r.mode() + " port " + port + " on " + address).isTrue();
      assertThat(accepts(otherAddress, port))
          .as(r.mode() + " port " + port + " on " + otherAddress)
          .isFalse();
    }
  }

  private static boolean accepts(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
