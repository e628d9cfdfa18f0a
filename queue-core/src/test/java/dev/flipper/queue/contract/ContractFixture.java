package dev.flipper.queue.contract;

import dev.flipper.queue.PasswordHash;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The state of one contract test: the clock, the stores opened through the backend's hooks, and services
 * and monitors over them. Opened lazily, closed after the test. Not thread-safe (set up from the test thread).
 */
final class ContractFixture implements AutoCloseable {
  static final String QUEUE = "contract_queue";
  static final String ADMIN_PASSWORD = "contract-admin-password";
  static final int PRIORITY_LEVELS = 3;
  /** Not on a whole second, so a backend that drops milliseconds is caught. */
  static final Instant START = Instant.parse("2024-03-10T12:00:00.123Z");

  final MutableClock clock = MutableClock.startingAt(START);

  private final QueueContractTest backend;
  private List<TestShard> shards = QueueContractTest.DEFAULT_SHARDS;
  private final List<QueueStore> opened = new ArrayList<>();
  private QueueStore store;
  private QueueStore secondStore;
  private QueueService service;
  private boolean queueCreated;

  ContractFixture(QueueContractTest backend) {
    this.backend = backend;
  }

  /** Chooses the shards of this test; call before anything opens the store. */
  void useShards(TestShard... newShards) {
    if (store != null) {
      throw new IllegalStateException("useShards must come before the store is opened");
    }
    shards = List.of(newShards);
  }

  List<TestShard> shards() {
    return shards;
  }

  QueueStore store() {
    if (store == null) {
      store = backend.openStore(shards);
      opened.add(store);
    }
    return store;
  }

  /** A second store over the same storage, as another server would open it. */
  QueueStore secondStore() {
    store();
    if (secondStore == null) {
      secondStore = backend.openSecondStore();
      opened.add(secondStore);
    }
    return secondStore;
  }

  /** The service of this test: 3 priorities, the fixture's clock and admin password. */
  QueueService service() {
    if (service == null) {
      service = serviceBuilder(store()).serverId("server-a").build();
    }
    return service;
  }

  QueueService.Builder serviceBuilder(QueueStore over) {
    return QueueService.builder(over)
        .priorityLevels(PRIORITY_LEVELS)
        .clock(clock)
        .adminPasswordHash(PasswordHash.of(ADMIN_PASSWORD));
  }

  /** A monitor over the test's store with the fixture's clock and short, round settings. */
  QueueMonitor.Builder monitor() {
    return monitor(store());
  }

  QueueMonitor.Builder monitor(QueueStore over) {
    return QueueMonitor.builder(over)
        .clock(clock)
        .claimTimeout(Duration.ofMinutes(10))
        .succeededTtl(Duration.ofHours(1))
        .failedTtl(Duration.ofHours(2))
        .batchSize(1000);
  }

  /** The default queue, created on first use. */
  String queue() {
    if (!queueCreated) {
      service().createQueue(QUEUE);
      queueCreated = true;
    }
    return QUEUE;
  }

  boolean setShardReachable(String shard, boolean reachable) {
    store();
    return backend.setShardReachable(shard, reachable);
  }

  boolean setShardHealthy(String shard, boolean healthy) {
    store();
    return backend.setShardHealthy(shard, healthy);
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (QueueStore each : opened) {
      try {
        each.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (store != null) {
      backend.dropStorage();
    }
    if (failure != null) {
      throw failure;
    }
  }
}
