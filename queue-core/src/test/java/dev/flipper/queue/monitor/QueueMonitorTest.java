package dev.flipper.queue.monitor;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class QueueMonitorTest {
  private final MutableClock clock = MutableClock.startingAt(Instant.parse("2024-01-01T00:00:00Z"));
  private InMemoryQueueStore store;
  private QueueService service;

  @BeforeEach
  void setUp() {
    store = InMemoryQueueStore.withShards("1", "2", "3");
    service = QueueService.builder(store).clock(clock).build();
    service.createQueue("q");
  }

  @Test
  void builderRejectsSettingsThatCannotWork() {
    assertThatThrownBy(() -> QueueMonitor.builder(store).claimTimeout(Duration.ZERO).build())
        .hasMessageContaining("claimTimeout");
    assertThatThrownBy(
            () -> QueueMonitor.builder(store).succeededTtl(Duration.ofSeconds(-1)).build())
        .hasMessageContaining("succeededTtl");
    assertThatThrownBy(() -> QueueMonitor.builder(store).failedTtl(null).build())
        .hasMessageContaining("failedTtl");
    assertThatThrownBy(() -> QueueMonitor.builder(store).interval(Duration.ZERO).build())
        .hasMessageContaining("interval");
    assertThatThrownBy(() -> QueueMonitor.builder(store).batchSize(0).build())
        .hasMessageContaining("batchSize must be >= 1, was 0");
  }

  @Test
  void aFailingShardIsSkippedAndTheOthersAreStillProcessed() {
    List<JobDescriptor> ids = claimOneByOne(30);
    store.shard(ids.get(0).shard()).setReachable(false);
    clock.advance(Duration.ofHours(1));

    MonitorReport report = monitor().build().runOnce();

    long onFailingShard = ids.stream().filter(id -> id.shard().equals(ids.get(0).shard())).count();
    assertThat(report.forQueue("q").timedOutRetried()).isEqualTo(30 - (int) onFailingShard);
    store.shard(ids.get(0).shard()).setReachable(true);
    assertThat(monitor().build().runOnce().forQueue("q").timedOutRetried())
        .isEqualTo((int) onFailingShard);
  }

  @Test
  void theTotalSinceCreatedAddsUpEveryRun() {
    QueueMonitor monitor = monitor().build();
    List<JobDescriptor> first = claimOneByOne(3);
    clock.advance(Duration.ofHours(1));
    monitor.runOnce();
    assertThat(monitor.totalSinceCreated().forQueue("q").timedOutRetried()).isEqualTo(first.size());

    claimOneByOne(2);
    clock.advance(Duration.ofHours(1));
    monitor.runOnce();

    // The second claims may be retried jobs (they then fail: no attempt left) or new ones (retried
    // again).
    assertThat(monitor.totalSinceCreated().forQueue("q").total()).isEqualTo(5);
  }

  @Test
  void unhealthyShardsAreNotVisited() {
    claimOneByOne(5);
    store.shard("2").setHealthy(false);
    clock.advance(Duration.ofHours(1));

    monitor().build().runOnce();

    assertThat(store.shard("2").calls("timeOutClaims")).isZero();
    assertThat(store.shard("1").calls("timeOutClaims")).isEqualTo(1);
  }

  @Test
  void reportsAddUpPerQueue() {
    MonitorReport a =
        new MonitorReport(java.util.Map.of("q", new MonitorReport.QueueCounts(1, 2, 3, 4)));
    MonitorReport b =
        new MonitorReport(
            java.util.Map.of(
                "q",
                new MonitorReport.QueueCounts(1, 1, 1, 1),
                "r",
                new MonitorReport.QueueCounts(0, 0, 0, 5)));

    MonitorReport sum = a.plus(b);

    assertThat(sum.forQueue("q")).isEqualTo(new MonitorReport.QueueCounts(2, 3, 4, 5));
    assertThat(sum.forQueue("absent")).isEqualTo(MonitorReport.QueueCounts.NONE);
    assertThat(sum.totals().total()).isEqualTo(19);
  }

  @Test
  void startRunsPeriodicallyOnADaemonThreadUntilClosed() {
    List<JobDescriptor> ids = claimOneByOne(3);
    clock.advance(Duration.ofHours(1));
    QueueMonitor monitor = monitor().interval(Duration.ofMillis(20)).build();

    monitor.start();
    try {
      assertThatThrownBy(monitor::start).isInstanceOf(IllegalStateException.class);
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(service.lookup(ids, false).values())
                      .allSatisfy(job -> assertThat(job.state()).isEqualTo(JobState.PENDING)));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> store.shard("1").calls("timeOutClaims") >= 3);
    } finally {
      monitor.close();
    }
    long calls = store.shard("1").calls("timeOutClaims");
    monitor.close();
    await()
        .during(Duration.ofMillis(100))
        .atMost(Duration.ofSeconds(1))
        .until(() -> store.shard("1").calls("timeOutClaims") == calls);
  }

  private QueueMonitor.Builder monitor() {
    return QueueMonitor.builder(store).clock(clock).claimTimeout(Duration.ofMinutes(10));
  }

  private List<JobDescriptor> claimOneByOne(int n) {
    List<JobDescriptor> ids = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.addAll(service.enqueue("q", List.of(aJob("j" + i))));
    }
    assertThat(service.dequeue(DequeueParams.of("q", n, "w"))).hasSize(n);
    return ids;
  }
}
