package dev.flipper.queue.contract;

import dev.flipper.queue.JobQueue;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.testing.BackendNameOnFailure;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The storage contract: every {@link QueueStore} must pass it. A backend's test extends this class
 * and only says how to open a store over fresh, isolated storage; the suite drives the store
 * through the {@link JobQueue} API of a {@link QueueService} and through {@link
 * dev.flipper.queue.monitor.QueueMonitor}, with a {@link dev.flipper.queue.testing.MutableClock},
 * so nothing sleeps. Overriding {@link #expose} runs the same suite through a remote transport
 * (queue-server runs it through Thrift).
 *
 * <pre>{@code
 * class RedisQueueContractTest extends QueueContractTest {
 *   protected QueueStore openStore(List<TestShard> shards) { ... new key prefix, one Redis shard per entry ... }
 *   protected QueueStore openSecondStore() { ... same prefix, new connections ... }
 *   protected void dropStorage() { ... delete the prefix's keys ... }
 * }
 * }</pre>
 *
 * <p>Per test: {@link #openStore} is called at most once (lazily), {@link #openSecondStore} at most
 * once, {@link #expose} once per service the test builds; after the test every exposed queue that
 * is {@link AutoCloseable} is closed, then every opened store, then {@link #dropStorage} is called.
 * Tests are grouped by area in nested classes; each area lives in its own {@code *Contract} file,
 * whose comment names the section of docs/queue.md it checks and the tests of PinLater's own suite
 * it carries over.
 */
@ExtendWith(BackendNameOnFailure.class)
public abstract class QueueContractTest {
  /** The shards of a test that does not choose: two enqueueable shards "1" and "2". */
  public static final List<TestShard> DEFAULT_SHARDS =
      List.of(TestShard.of("1"), TestShard.of("2"));

  /**
   * Creates fresh, empty, isolated storage with exactly these shards (no queues yet) and opens a
   * store over it. Called at most once per test.
   */
  protected abstract QueueStore openStore(List<TestShard> shards);

  /**
   * Opens a second store instance (its own connections and caches) over the storage created by this
   * test's {@link #openStore} call, as a second server process would. Called at most once per test.
   */
  protected abstract QueueStore openSecondStore();

  /**
   * Removes the storage created by this test's {@link #openStore}; called after all stores are
   * closed.
   */
  protected void dropStorage() {}

  /**
   * Makes every call to the shard fail with SHARD_CONNECTION_FAILED (false) or work again (true),
   * without changing what {@code healthy()} reports. Returns false if the backend cannot simulate
   * this; tests that need it are then skipped.
   */
  protected boolean setShardReachable(String shard, boolean reachable) {
    return false;
  }

  /**
   * Sets what the shard's {@code healthy()} reports, without changing whether calls work. Returns
   * false if the backend cannot simulate this; tests that need it are then skipped.
   */
  protected boolean setShardHealthy(String shard, boolean healthy) {
    return false;
  }

  /**
   * The queue the tests talk to, over a service the suite built. The default is the service itself;
   * a remote transport (for example a Thrift server and client) wraps it here to run the whole
   * suite through the wire. Called for every service of a test: the default one, variants with
   * other settings (a body or count limit, no admin password) and the second server over {@link
   * #openSecondStore}. A result that is {@link AutoCloseable} is closed after the test, before the
   * stores. Tests reach the stores (monitors, failure injection) directly, never through this.
   */
  protected JobQueue expose(QueueService service) {
    return service;
  }

  ContractFixture fixture;

  @BeforeEach
  final void openFixture() {
    fixture = new ContractFixture(this);
  }

  @AfterEach
  final void closeFixture() {
    fixture.close();
  }

  @Nested
  class QueueAdmin extends QueueAdminContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Enqueue extends EnqueueContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Dequeue extends DequeueContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Ack extends AckContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Checkpoint extends CheckpointContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class LookupAndCount extends LookupAndCountContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Scan extends ScanContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class RetryAndDelete extends RetryAndDeleteContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Monitor extends MonitorContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class BadInput extends BadInputContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Sharding extends ShardingContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class PauseAndDeleteJob extends PauseAndDeleteJobContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class UniqueJobs extends UniqueJobsContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }

  @Nested
  class Concurrency extends ConcurrencyContract {
    @Override
    ContractFixture fx() {
      return fixture;
    }
  }
}
