package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A stopping scheduler does not wait out the claim it has waiting in the master: the client the
 * launcher opened for it cuts the wait short, so its loop has ended when close() returns. The claim
 * here may wait 30 s (the master's limit; scheduler.maxWait asks for more), longer than close()
 * waits for the loop (10 s): without the cut, the loop would outlive it.
 */
class SchedulerModeStopTest {
  @Test
  void closeCutsTheClaimWaitingInTheMasterShort() throws Exception {
    TokenService service = TokenService.builder(InMemoryTokenStore.create()).build();
    try (TokenMasterServer master =
        TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start()) {
      FlipperConfig config =
          ConfigLoader.defaults(
              List.of("master.port=" + master.port(), "scheduler.maxWait=10m"), Map.of());
      Set<Thread> before = Thread.getAllStackTraces().keySet();
      ModeDaemon<?> scheduler =
          Mode.SCHEDULER.create(new Mode.Context(config, new MetricRegistry(), 0, 0, 0));
      assertThat(scheduler.masterClient()).as("the client the launcher opened").isNotNull();
      scheduler.daemon().start();
      List<Thread> loops =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> !before.contains(t) && t.getName().startsWith("flipper-scheduler-"))
              .toList();
      assertThat(loops).hasSize(1);
      await().atMost(Duration.ofSeconds(30)).until(() -> service.waitingClaims() > 0);

      CompletableFuture<Void> closing = CompletableFuture.runAsync(scheduler::close);

      closing.get(60, TimeUnit.SECONDS);
      assertThat(loops.get(0).isAlive()).as("the loop waits in the master no more").isFalse();
      assertThat(scheduler.daemon().readiness()).containsEntry("scheduler", false);
    }
  }
}
