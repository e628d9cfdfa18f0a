package dev.flipper.workflow.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MasterDaemonTest {
  private final MetricRegistry metrics = new MetricRegistry();
  @TempDir Path dir;

  private MasterDaemon.Config config() {
    return new MasterDaemon.Config(0, JdbcTokenStoreConfig.embedded(dir.resolve("tokens")));
  }

  @Test
  void servesTokensOverThriftBetweenStartAndClose() {
    MasterDaemon daemon = new MasterDaemon(config(), metrics);
    assertThat(daemon.isReady()).isFalse();

    daemon.start();
    assertThat(daemon.isReady()).isTrue();
    assertThat(metrics.getGauges().get("master.running").getValue()).isEqualTo(1);
    try (TokenMasterClient client = TokenMasterClient.builder("127.0.0.1", daemon.port()).build()) {
      List<Token> written = client.modify(ModifyParams.updating(Token.of("/workflow/demo/1/job/waiting/a", "{}")));
      assertThat(client.query(List.of(Query.prefix("/workflow/demo/"))).get(0))
          .extracting(Token::name, Token::version)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(written.get(0).name(), written.get(0).version()));
    }

    daemon.close();
    daemon.close();
    assertThat(daemon.isReady()).isFalse();
    assertThat(metrics.getGauges().get("master.running").getValue()).isEqualTo(0);
  }

  @Test
  void startsOnlyOnce() {
    MasterDaemon daemon = new MasterDaemon(config(), metrics);
    daemon.start();

    assertThatThrownBy(daemon::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("twice");
    daemon.close();
    assertThatThrownBy(daemon::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("after close");
  }
}
