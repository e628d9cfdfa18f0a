package dev.flipper.queue.contract;

import dev.flipper.queue.JobQueue;
import dev.flipper.queue.PasswordHash;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The state of one contract test: the clock, the stores opened through the backend's hooks,
 * services and monitors over them, and the queues the tests talk to (each service as the backend
 * exposes it, see {@link QueueContractTest#expose}). Opened lazily, closed after the test. Not
 * thread-safe (set up from the test thread).
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
  private JobQueue api;
  private final List<AutoCloseable> exposed = new ArrayList<>();
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

  /**
   * The service of this test: 3 priorities, the fixture's clock and admin password. Tests call it
   * through {@link #api()}; use it directly only for what the queue API does not offer.
   */
  QueueService service() {
    if (service == null) {
      service = serviceBuilder(store()).serverId("server-a").build();
    }
    return service;
  }

  /** The queue the tests talk to: {@link #service()} as the backend exposes it. */
  JobQueue api() {
    if (api == null) {
      api = expose(service());
    }
    return api;
  }

  /** Another service over the test's store with changed settings (a body limit, say), exposed. */
  JobQueue apiWith(UnaryOperator<QueueService.Builder> settings) {
    return expose(settings.apply(serviceBuilder(store())).build());
  }

  /**
   * A second server, "server-b", over the second store: what another process over the same storage
   * sees.
   */
  JobQueue secondServerApi() {
    return expose(serviceBuilder(secondStore()).serverId("server-b").build());
  }

  private JobQueue expose(QueueService over) {
    JobQueue queue = backend.expose(over);
    if (queue instanceof AutoCloseable closeable) {
      exposed.add(closeable);
    }
    return queue;
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
      api().createQueue(QUEUE);
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

  /** Closes what was exposed (newest first), then the stores, then drops the storage. */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (int i = exposed.size() - 1; i >= 0; i--) {
      try {
        exposed.get(i).close();
      } catch (Exception e) {
        failure =
            failure == null
                ? new IllegalStateException("closing " + exposed.get(i) + " failed", e)
                : failure;
      }
    }
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
