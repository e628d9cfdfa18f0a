package dev.flipper.queue;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.memory.InMemoryShardStore;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.testing.Jobs;
import dev.flipper.queue.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Service logic that the contract suite cannot see from outside: which shards are asked, how often,
 * and what is left alone. Uses the in-memory store's call counters and hooks.
 */
class QueueServiceTest {
  private final MutableClock clock = MutableClock.startingAt(Instant.parse("2024-01-01T00:00:00Z"));

  private QueueService serviceOver(InMemoryQueueStore store) {
    QueueService service = QueueService.builder(store).clock(clock).serverId("host:9010").build();
    service.createQueue("q");
    return service;
  }

  @Test
  void requestsThatDidWorkPayNoExistenceCheck() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
    QueueService service = serviceOver(store);

    List<JobDescriptor> ids = service.enqueue("q", Jobs.numbered("j", 5));
    List<DequeuedJob> jobs = service.dequeue(DequeueParams.of("q", 3, "w"));
    service.ack(
        new AckParams("q", List.of(AckParams.Item.of(jobs.get(0).descriptor())), List.of()));
    service.count(CountParams.of("q", JobState.PENDING));
    service.lookup(ids, true);

    assertThat(calls(store, "queueExists")).isZero();

    service.dequeue(
        DequeueParams.of("q", 3, "w").withAck(new AckParams("q", List.of(), List.of())));
    service.ack(
        new AckParams("q", List.of(AckParams.Item.of(jobs.get(0).descriptor())), List.of()));
    assertThat(calls(store, "queueExists"))
        .as("only the dequeue and ack that changed less than asked")
        .isBetween(1L, 2L);
  }

  /**
   * queue.bodyFilterStepsPerBody reaches the filters of count: a smaller budget stops a search
   * sooner.
   */
  @Test
  void bodyFiltersUseTheBudgetsTheServiceWasBuiltWith() {
    QueueService service =
        QueueService.builder(InMemoryQueueStore.withShards("1"))
            .clock(clock)
            .serverId("host:9010")
            .bodyFilterBudgets(1_000, Duration.ofSeconds(30))
            .build();
    service.createQueue("q");
    service.enqueue("q", List.of(aJob("x".repeat(2_000) + "needle")));
    CountParams count = new CountParams("q", JobState.PENDING, null, false, "ne+dle");

    QueueException e = catchThrowableOfType(() -> service.count(count), QueueException.class);

    assertThat(e.getMessage()).contains("read more than 1000 characters");
    QueueService defaults = serviceOver(InMemoryQueueStore.withShards("1"));
    defaults.enqueue("q", List.of(aJob("x".repeat(2_000) + "needle")));
    assertThat(defaults.count(count)).isEqualTo(1);
  }

  @Test
  void claimDescriptorsNameServerStartCounterAndSource() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    long start = clock.millis();
    QueueService service = serviceOver(store);
    List<JobDescriptor> ids = service.enqueue("q", List.of(aJob(), aJob()));
    clock.advance(Duration.ofSeconds(5));

    service.dequeue(DequeueParams.of("q", 1, "mailer:host7"));
    service.dequeue(DequeueParams.of("q", 1, "mailer:host7"));

    assertThat(service.lookup(ids, false).values())
        .extracting(JobInfo::claimDescriptor)
        .containsExactly(
            "host:9010:" + start + ":1:mailer:host7", "host:9010:" + start + ":2:mailer:host7");
  }

  @Test
  void dequeueOnlyShardsAreDequeuedButGetNoNewJobs() {
    InMemoryQueueStore store = InMemoryQueueStore.builder().shard("1").shard("2").build();
    QueueService service = serviceOver(store);
    store.shard("1").setDequeueOnly(true);
    List<JobDescriptor> onTwo = service.enqueue("q", List.of(aJob()));
    store.shard("2").setDequeueOnly(true);
    store.shard("1").setDequeueOnly(false);
    List<JobDescriptor> onOne = service.enqueue("q", List.of(aJob()));
    store.shard("2").setDequeueOnly(true);

    assertThat(onTwo.get(0).shard()).isEqualTo("2");
    assertThat(onOne.get(0).shard()).isEqualTo("1");
    assertThat(service.dequeue(DequeueParams.of("q", 10, "w")))
        .extracting(DequeuedJob::descriptor)
        .containsExactlyInAnyOrder(onTwo.get(0), onOne.get(0));
  }

  @Test
  void withOnlyDequeueOnlyShardsEnqueueHasNoShard() {
    InMemoryQueueStore store =
        InMemoryQueueStore.builder().dequeueOnlyShard("1").dequeueOnlyShard("2").build();
    QueueService service = serviceOver(store);

    QueueException e =
        catchThrowableOfType(QueueException.class, () -> service.enqueue("q", List.of(aJob())));

    assertThat(e.errorCode()).isEqualTo(ErrorCode.NO_HEALTHY_SHARDS);
    assertThat(e.getMessage()).contains("2 shards, 2 healthy, 2 dequeue-only");
  }

  @Test
  void anEnqueueIsRetriedOnlyOnce() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2", "3");
    QueueService service = serviceOver(store);
    for (String shard : List.of("1", "2", "3")) {
      store.shard(shard).setReachable(false);
    }

    QueueException e =
        catchThrowableOfType(QueueException.class, () -> service.enqueue("q", List.of(aJob())));

    assertThat(e.errorCode()).isEqualTo(ErrorCode.SHARD_CONNECTION_FAILED);
    assertThat(calls(store, "enqueue")).isEqualTo(2);
  }

  @Test
  void aBusyShardIsSkippedByDequeueAndEnqueueGoesToAnotherWithoutMarkingItDown() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
    QueueService service = serviceOver(store);
    List<JobDescriptor> jobs = new ArrayList<>();
    while (jobs.stream().map(JobDescriptor::shard).distinct().count() < 2) {
      jobs.addAll(service.enqueue("q", List.of(aJob())));
    }
    store.shard("1").setBusy(true);

    assertThat(service.dequeue(DequeueParams.of("q", 100, "w")))
        .extracting(d -> d.descriptor().shard())
        .isNotEmpty()
        .containsOnly("2");
    for (int i = 0; i < 10; i++) {
      assertThat(service.enqueue("q", List.of(aJob())).get(0).shard()).isEqualTo("2");
    }
    assertThat(store.shard("1").healthy()).isTrue();

    store.shard("2").setBusy(true);
    QueueException e =
        catchThrowableOfType(
            QueueException.class, () -> service.dequeue(DequeueParams.of("q", 1, "w")));
    assertThat(e.errorCode()).isEqualTo(ErrorCode.SHARD_BUSY);
  }

  @Test
  void aFailingShardIsAskedOncePerDequeue() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
    QueueService service = serviceOver(store);
    service.enqueue("q", List.of(aJob().withPriority(3)));
    store.shard("1").setReachable(false);
    store.shard("2").setReachable(false);

    catchThrowableOfType(
        QueueException.class, () -> service.dequeue(DequeueParams.of("q", 10, "w")));

    assertThat(store.shard("1").calls("claim")).isEqualTo(1);
    assertThat(store.shard("2").calls("claim")).isEqualTo(1);
  }

  @Test
  void coverageVisitsTheRoundedShareOfHealthyShards() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2", "3", "4");
    QueueService service = serviceOver(store);

    service.dequeue(DequeueParams.of("q", 10, "w").withCoverage(0.5));

    long visited =
        store.shards().stream()
            .filter(shard -> ((InMemoryShardStore) shard).calls("claim") > 0)
            .count();
    assertThat(visited).isEqualTo(2);
  }

  @Test
  void aShardAddedByAReloadGetsTheQueuesAndNewJobs() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    QueueService service = serviceOver(store);
    store.shard("1").setDequeueOnly(true);

    store.addShard("2", false);
    JobDescriptor id = service.enqueue("q", List.of(aJob())).get(0);

    assertThat(id.shard()).isEqualTo("2");
    assertThat(store.shard("2").queueNames()).containsExactly("q");
  }

  @Test
  void acksAndLookupsOfARemovedShardAreNoOps() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
    QueueService service = serviceOver(store);
    List<JobDescriptor> ids = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ids.addAll(service.enqueue("q", List.of(aJob())));
    }
    service.dequeue(DequeueParams.of("q", 10, "w"));
    String removed = ids.get(0).shard();

    store.removeShard(removed);
    service.ack(new AckParams("q", ids.stream().map(AckParams.Item::of).toList(), List.of()));

    assertThat(service.lookup(ids, false).keySet())
        .allSatisfy(id -> assertThat(id.shard()).isNotEqualTo(removed));
    assertThat(service.count(CountParams.of("q", JobState.SUCCEEDED)))
        .isEqualTo((int) ids.stream().filter(id -> !id.shard().equals(removed)).count());
  }

  @Test
  void builderRejectsBadSettings() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    assertThat(
            catchThrowableOfType(
                IllegalArgumentException.class,
                () -> QueueService.builder(store).priorityLevels(0).build()))
        .hasMessageContaining("priorityLevels");
    assertThat(
            catchThrowableOfType(
                IllegalArgumentException.class,
                () -> QueueService.builder(store).maxBodyBytes(0).build()))
        .hasMessageContaining("maxBodyBytes");
    assertThat(
            catchThrowableOfType(
                IllegalArgumentException.class,
                () -> QueueService.builder(store).serverId(" ").build()))
        .hasMessageContaining("serverId");
  }

  private static long calls(InMemoryQueueStore store, String method) {
    long total = 0;
    for (ShardStore shard : store.shards()) {
      total += ((InMemoryShardStore) shard).calls(method);
    }
    return total;
  }
}
