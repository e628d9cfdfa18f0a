package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ShardStore;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The queue daemon over a store it is given: readiness, its Thrift endpoint, shard changes through
 * the launcher's reconfigurer, and that it owns the store (closed by close(), and by a failed
 * start).
 */
class QueueDaemonTest {
  private final MetricRegistry metrics = new MetricRegistry();
  private final InMemoryQueueStore memory = InMemoryQueueStore.withShards("1");
  private final ClosingStore store = new ClosingStore(memory);
  private final List<List<String>> applied = new ArrayList<>();

  private static QueueDaemon.Config config(int port) {
    return new QueueDaemon.Config(
        "127.0.0.1",
        port,
        3,
        1 << 20,
        16 << 20,
        Duration.ofMinutes(10),
        Duration.ofHours(24),
        Duration.ofDays(7),
        Duration.ofMinutes(1),
        5000,
        "",
        "",
        "",
        Duration.ZERO,
        200,
        Duration.ofMinutes(5),
        Duration.ofSeconds(60),
        10_000_000,
        Duration.ofSeconds(10),
        4096,
        512,
        4);
  }

  /**
   * Shard settings are the shard names; "redis" stands for a backend the running store cannot
   * switch to.
   */
  private QueueDaemon<List<String>> daemon(int port) {
    return new QueueDaemon<>(
        config(port),
        store,
        List.of("1"),
        (s, current, changed) -> {
          if (changed.contains("redis")) {
            return Optional.of(
                "storage.backend changed; restart the queue daemon to switch backends");
          }
          changed.stream()
              .filter(name -> !current.contains(name))
              .forEach(name -> memory.addShard(name, false));
          applied.add(changed);
          return Optional.empty();
        },
        metrics);
  }

  @Test
  void servesTheStoreOverThriftAndIsReadyOnlyBetweenStartAndClose() {
    QueueDaemon<List<String>> daemon =
        daemon(0).startedMetrics((service, monitor) -> Map.of("queue.extra", new Counter()));
    assertThat(daemon.readiness())
        .containsExactly(
            Map.entry("store", false),
            Map.entry("shards", false),
            Map.entry("monitor", false),
            Map.entry("thrift", false));
    assertThat(daemon.endpoints()).isEmpty();
    assertThat(daemon.port()).isZero();

    daemon.start();
    assertThat(daemon.isReady()).isTrue();
    assertThat(daemon.endpoints()).containsExactly("thrift port " + daemon.port());
    assertThat(metrics.getGauges().get("queue.shards.total").getValue()).isEqualTo(1);
    assertThat(metrics.getGauges().get("queue.shards.healthy").getValue()).isEqualTo(1);
    assertThat(metrics.getMetrics()).containsKey("queue.extra");
    try (QueueClient client =
        QueueClient.builder().server("127.0.0.1", daemon.port()).source("test").build()) {
      client.createQueue("mail");
    }
    assertThat(memory.shard("1").queueNames()).contains("mail");
    assertThatThrownBy(daemon::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already started");

    daemon.close();
    daemon.close();
    assertThat(daemon.readiness()).doesNotContainValue(true);
    assertThat(metrics.getGauges().get("queue.shards.total").getValue()).isEqualTo(0);
    assertThat(store.closed).hasValue(1);
    assertThatThrownBy(daemon::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void appliesChangedShardsAndKeepsTheSettingsItCannotApply() {
    QueueDaemon<List<String>> daemon = daemon(0);
    daemon.reconfigure(List.of("1", "2"));
    assertThat(applied).as("nothing before start").isEmpty();
    daemon.start();
    try {
      daemon.reconfigure(List.of("1"));
      assertThat(applied).as("unchanged").isEmpty();

      daemon.reconfigure(List.of("1", "2"));
      assertThat(applied).containsExactly(List.of("1", "2"));
      assertThat(metrics.getGauges().get("queue.shards.total").getValue()).isEqualTo(2);

      daemon.reconfigure(List.of("redis"));
      daemon.reconfigure(List.of("1", "2"));
      assertThat(applied).as("the refused settings did not replace the running ones").hasSize(1);
    } finally {
      daemon.close();
    }
  }

  @Test
  void aFailedStartClosesTheStore() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      QueueDaemon<List<String>> daemon = daemon(taken.getLocalPort());

      assertThatThrownBy(daemon::start).isInstanceOf(RuntimeException.class);

      assertThat(store.closed).hasValue(1);
      assertThat(daemon.readiness()).doesNotContainValue(true);
      daemon.close();
      assertThat(store.closed).hasValue(1);
    }
  }

  @Test
  void closesTheStoreItWasGivenEvenIfNeverStarted() {
    daemon(0).close();
    assertThat(store.closed).hasValue(1);
  }

  @Test
  void configMasksThePasswordHash() {
    QueueDaemon.Config config =
        new QueueDaemon.Config(
            "127.0.0.1",
            9010,
            3,
            1,
            1,
            Duration.ZERO,
            Duration.ZERO,
            Duration.ZERO,
            Duration.ZERO,
            1,
            "",
            "",
            "$2a$10$secret",
            Duration.ZERO,
            1,
            Duration.ZERO,
            Duration.ZERO,
            1,
            Duration.ZERO,
            1,
            1,
            1);
    assertThat(config.toString()).contains("adminPasswordHash=*****").doesNotContain("secret");
  }

  /** Counts close() calls. */
  private static final class ClosingStore implements QueueStore {
    private final QueueStore delegate;
    final AtomicInteger closed = new AtomicInteger();

    ClosingStore(QueueStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public List<ShardStore> shards() {
      return delegate.shards();
    }

    @Override
    public void close() {
      closed.incrementAndGet();
      delegate.close();
    }
  }
}
