package dev.flipper.workflow.scheduler.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A short real-time run: 3 schedulers, 50 schedules every second, 4 s. Lateness is printed, not asserted. */
class ScheduleBenchmarkTest {

  @Test
  void threeSchedulersFireEverySlotOnce() throws Exception {
    Clock clock = Clock.systemUTC();
    TokenService master = TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
    ScheduleBenchmark.Result result = new ScheduleBenchmark(master, clock).run(50, 3, Duration.ofSeconds(4));
    LoggerFactory.getLogger(ScheduleBenchmarkTest.class).info("schedule benchmark: {}", result);
    assertThat(result.duplicates()).isZero();
    assertThat(result.missing()).isZero();
    assertThat(result.fired()).isEqualTo(result.expected());
  }
}
