package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import org.junit.jupiter.api.Test;

class UiDaemonTest {
  private final MetricRegistry metrics = new MetricRegistry();

  private UiDaemon daemon() {
    return new UiDaemon(
        new UiDaemon.Config("127.0.0.1", 0, "127.0.0.1"),
        TokenService.builder(InMemoryTokenStore.create()).build(),
        "in-process",
        metrics);
  }

  @Test
  void isReadyOnlyBetweenStartAndClose() {
    UiDaemon daemon = daemon();
    assertThat(daemon.isReady()).isFalse();

    daemon.start();
    assertThat(daemon.isReady()).isTrue();
    assertThat(daemon.port()).isPositive();
    assertThat(daemon.endpoints())
        .containsExactly("web UI http://127.0.0.1:" + daemon.port() + "/");
    assertThat(metrics.getGauges().get("ui.running").getValue()).isEqualTo(1);

    daemon.close();
    daemon.close();
    assertThat(daemon.isReady()).isFalse();
    assertThat(metrics.getGauges().get("ui.running").getValue()).isEqualTo(0);
  }

  @Test
  void startsOnlyOnce() {
    UiDaemon daemon = daemon();
    daemon.start();

    assertThatThrownBy(daemon::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("RUNNING");
    daemon.close();
    assertThatThrownBy(daemon::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("CLOSED");
  }
}
