package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ShardStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** close() lets a call that is running finish and answer before the server stops. */
class GracefulCloseTest {

  @Test
  void aRunningCallFinishesAndIsAnsweredDuringClose() throws Exception {
    CountDownLatch storeEntered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    InMemoryQueueStore memory = InMemoryQueueStore.withShards("1");
    TestServer server =
        TestServer.over(
            slowQueueNames(memory, storeEntered, release),
            b -> b.shutdownGracePeriod(Duration.ofSeconds(10)));
    memory.shard("1").createQueue("close_q");
    try (QueueClient client = server.client()) {
      CompletableFuture<Set<String>> running = CompletableFuture.supplyAsync(client::queueNames);
      assertThat(storeEntered.await(5, TimeUnit.SECONDS)).isTrue();

      CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
      await()
          .during(Duration.ofMillis(200))
          .atMost(Duration.ofSeconds(2))
          .until(() -> !closing.isDone());
      release.countDown();

      assertThat(running.get(5, TimeUnit.SECONDS)).containsExactly("close_q");
      closing.get(5, TimeUnit.SECONDS);
      assertThat(server.server.isRunning()).isFalse();
    }
  }

  /** The store, with queueNames() blocking until released, as a slow database would. */
  private static QueueStore slowQueueNames(
      QueueStore store, CountDownLatch entered, CountDownLatch release) {
    List<ShardStore> shards =
        store.shards().stream()
            .map(
                shard ->
                    (ShardStore)
                        Proxy.newProxyInstance(
                            ShardStore.class.getClassLoader(),
                            new Class<?>[] {ShardStore.class},
                            (proxy, method, args) -> {
                              if (method.getName().equals("queueNames")) {
                                entered.countDown();
                                release.await(10, TimeUnit.SECONDS);
                              }
                              try {
                                return method.invoke(shard, args);
                              } catch (InvocationTargetException e) {
                                throw e.getCause();
                              }
                            }))
            .toList();
    return new QueueStore() {
      @Override
      public List<ShardStore> shards() {
        return shards;
      }

      @Override
      public void close() {
        store.close();
      }
    };
  }
}
