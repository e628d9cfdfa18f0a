package dev.flipper.workflow.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.OverrunPolicy;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.schedule.ScheduleTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
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
  @Tag("slow")
  void withAMasterItFiresSchedulesThroughTheEngine() {
    TokenService master = TokenService.builder(InMemoryTokenStore.create()).build();
    WorkflowEngine engine = WorkflowEngine.builder(master).build();
    WorkflowDefinition tick =
        WorkflowDefinition.builder("tick")
            .schedule(
                Schedule.every(Duration.ofSeconds(1))
                    .start(Instant.parse("2026-01-01T00:00:00Z"))
                    .overrun(OverrunPolicy.START_NEW)
                    .maxRunning(100)) // no worker runs them: they stay RUNNING
            .job(JobDefinition.builder("a").command("true"))
            .build();
    engine.definitions().apply(List.of(tick));
    ScheduleTokens.apply(master, List.of(tick), Instant.now());
    SchedulerDaemon daemon =
        new SchedulerDaemon(
            metrics, master, MailSettings.disabled(), "", SchedulerDaemon.Config.defaults());
    daemon.start();
    try {
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> engine.status().instances("tick").size() >= 2);
    } finally {
      daemon.close();
    }
    assertThat((Long) metrics.getGauges().get("scheduler.started").getValue())
        .isGreaterThanOrEqualTo(2L);
    assertThat(engine.status().instances("tick"))
        .allSatisfy(i -> assertThat(i.params()).containsKey(InstanceStarter.SCHEDULED_TIME));
  }

  @Test
  void startsOnlyOnce() {
    SchedulerDaemon daemon = new SchedulerDaemon(metrics);
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
