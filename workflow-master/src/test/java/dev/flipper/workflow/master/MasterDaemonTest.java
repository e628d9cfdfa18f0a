package dev.flipper.workflow.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import org.junit.jupiter.api.Test;

class MasterDaemonTest {
  private final MetricRegistry metrics = new MetricRegistry();

  @Test
  void isReadyOnlyBetweenStartAndClose() {
    MasterDaemon daemon = new MasterDaemon(new MasterDaemon.Config(0), metrics);
    assertThat(daemon.isReady()).isFalse();

    daemon.start();
    assertThat(daemon.isReady()).isTrue();
    assertThat(metrics.getGauges().get("master.running").getValue()).isEqualTo(1);

    daemon.close();
    daemon.close();
    assertThat(daemon.isReady()).isFalse();
    assertThat(metrics.getGauges().get("master.running").getValue()).isEqualTo(0);
  }

  @Test
  void startsOnlyOnce() {
    MasterDaemon daemon = new MasterDaemon(new MasterDaemon.Config(0), metrics);
    daemon.start();

    assertThatThrownBy(daemon::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("RUNNING");
    daemon.close();
    assertThatThrownBy(daemon::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("CLOSED");
  }
}
