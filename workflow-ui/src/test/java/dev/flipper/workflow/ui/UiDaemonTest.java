package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import org.junit.jupiter.api.Test;

class UiDaemonTest {
  private final MetricRegistry metrics = new MetricRegistry();

  @Test
  void isReadyOnlyBetweenStartAndClose() {
    UiDaemon daemon = new UiDaemon(new UiDaemon.Config("127.0.0.1", 0), metrics);
    assertThat(daemon.isReady()).isFalse();

    daemon.start();
    assertThat(daemon.isReady()).isTrue();
    assertThat(metrics.getGauges().get("ui.running").getValue()).isEqualTo(1);

    daemon.close();
    daemon.close();
    assertThat(daemon.isReady()).isFalse();
    assertThat(metrics.getGauges().get("ui.running").getValue()).isEqualTo(0);
  }

  @Test
  void startsOnlyOnce() {
    UiDaemon daemon = new UiDaemon(new UiDaemon.Config("127.0.0.1", 0), metrics);
    daemon.start();

    assertThatThrownBy(daemon::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("RUNNING");
    daemon.close();
    assertThatThrownBy(daemon::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("CLOSED");
  }
}
