package dev.flipper.workflow.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import org.junit.jupiter.api.Test;

class SchedulerDaemonTest {
  private final MetricRegistry metrics = new MetricRegistry();

  @Test
  void isReadyOnlyBetweenStartAndClose() {
    SchedulerDaemon daemon = new SchedulerDaemon(metrics);
    assertThat(daemon.isReady()).isFalse();

    daemon.start();
    assertThat(daemon.isReady()).isTrue();
    assertThat(metrics.getGauges().get("scheduler.running").getValue()).isEqualTo(1);

    daemon.close();
    daemon.close();
    assertThat(daemon.isReady()).isFalse();
    assertThat(metrics.getGauges().get("scheduler.running").getValue()).isEqualTo(0);
  }

  @Test
  void startsOnlyOnce() {
    SchedulerDaemon daemon = new SchedulerDaemon(metrics);
    daemon.start();

    assertThatThrownBy(daemon::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("RUNNING");
    daemon.close();
    assertThatThrownBy(daemon::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("CLOSED");
  }
}
