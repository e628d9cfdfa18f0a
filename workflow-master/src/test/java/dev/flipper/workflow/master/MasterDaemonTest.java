package dev.flipper.workflow.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.Test;

class MasterDaemonTest {
  private final MetricRegistry metrics = new MetricRegistry();

  private MasterDaemon daemon(String bindAddress) {
    return new MasterDaemon(
        new MasterDaemon.Config(bindAddress, 0), InMemoryTokenStore.create(), metrics);
  }

  @Test
  void servesTokensOverThriftBetweenStartAndClose() {
    MasterDaemon daemon = daemon("127.0.0.1");
    assertThat(daemon.isReady()).isFalse();

    daemon.start();
    assertThat(daemon.isReady()).isTrue();
    assertThat(daemon.endpoints()).containsExactly("thrift port " + daemon.port());
    assertThat(metrics.getGauges().get("master.running").getValue()).isEqualTo(1);
    try (TokenMasterClient client = TokenMasterClient.builder("127.0.0.1", daemon.port()).build()) {
      List<Token> written =
          client.modify(ModifyParams.updating(Token.of("/workflow/demo/1/job/waiting/a", "{}")));
      assertThat(client.query(List.of(Query.prefix("/workflow/demo/"))).get(0))
          .extracting(Token::name, Token::version)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(written.get(0).name(), written.get(0).version()));
    }

    daemon.close();
    daemon.close();
    assertThat(daemon.isReady()).isFalse();
    assertThat(metrics.getGauges().get("master.running").getValue()).isEqualTo(0);
  }

  @Test
  void startsOnlyOnce() {
    MasterDaemon daemon = daemon("127.0.0.1");
    daemon.start();

    assertThatThrownBy(daemon::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("RUNNING");
    daemon.close();
    assertThatThrownBy(daemon::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("CLOSED");
  }

  /**
   * 127.0.0.1 and 127.0.0.2 are both this machine (Linux routes 127/8 to loopback), on separate
   * addresses.
   */
  @Test
  void listensOnlyOnTheConfiguredAddress() {
    for (String[] bindAndOther :
        new String[][] {{"127.0.0.1", "127.0.0.2"}, {"127.0.0.2", "127.0.0.1"}}) {
      MasterDaemon daemon = daemon(bindAndOther[0]);
      daemon.start();
      try {
        assertThat(accepts(bindAndOther[0], daemon.port()))
            .as("connect to " + bindAndOther[0])
            .isTrue();
        assertThat(accepts(bindAndOther[1], daemon.port()))
            .as("connect to " + bindAndOther[1])
            .isFalse();
      } finally {
        daemon.close();
      }
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
