package dev.flipper.queue.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BodyFilterTest {

  @Test
  void nullOrEmptyMatchesEverything() {
    assertThat(BodyFilter.of(null)).isSameAs(BodyFilter.ALL);
    assertThat(BodyFilter.of("")).isSameAs(BodyFilter.ALL);
    assertThat(BodyFilter.ALL.matchesAll()).isTrue();
    assertThat(BodyFilter.ALL.matches(new byte[] {(byte) 0xff})).isTrue();
  }

  @Test
  void searchesAnywhereInTheUtf8Body() {
    BodyFilter filter = BodyFilter.of("job_body_1.*");

    assertThat(filter.matchesAll()).isFalse();
    assertThat(filter.matches(utf8("job_body_17"))).isTrue();
    assertThat(filter.matches(utf8("prefix job_body_1"))).isTrue();
    assertThat(filter.matches(utf8("job_body_2"))).isFalse();
    assertThat(BodyFilter.of("^exact$").matches(utf8("exact"))).isTrue();
    assertThat(BodyFilter.of("^exact$").matches(utf8("not exact"))).isFalse();
  }

  @Test
  void dotMatchesNewlinesAndUnicodeIsDecoded() {
    assertThat(BodyFilter.of("a.b").matches(utf8("a\nb"))).isTrue();
    assertThat(BodyFilter.of("café").matches(utf8("le café"))).isTrue();
    assertThat(BodyFilter.of("\uFFFD").matches(new byte[] {'x', (byte) 0xc3})).isTrue();
  }

  @Test
  void anInvalidRegexNamesItselfAndTheProblem() {
    QueueException e = catchThrowableOfType(QueueException.class, () -> BodyFilter.of("job_("));

    assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN);
    assertThat(e.getMessage()).contains("'job_('").contains("not a valid Java regular expression");
  }

  @Test
  void aBacktrackingRegexStopsAtTheStepBudgetOfOneBody() {
    BodyFilter filter = BodyFilter.of("((a+)+)\\2b");

    QueueException e =
        catchThrowableOfType(QueueException.class, () -> filter.matches(utf8("a".repeat(40))));

    assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN);
    assertThat(e.getMessage())
        .contains("'((a+)+)\\2b'")
        .contains("step budget")
        .contains(Long.toString(BodyFilter.STEPS_PER_BODY))
        .contains("40 bytes");
  }

  @Test
  void theStepBudgetCountsOneBodyAtATime() {
    BodyFilter filter = BodyFilter.of("b$", 1_000, Duration.ofHours(1), System::nanoTime);
    for (int i = 0; i < 100; i++) {
      assertThat(filter.matches(utf8("a".repeat(500) + "b"))).isTrue();
    }
    assertThatThrownBy(() -> filter.matches(utf8("a".repeat(5_000))))
        .hasMessageContaining("step budget");
  }

  @Test
  void aLinearRegexOverALargeBodyStaysWithinTheBudget() {
    byte[] body = utf8("x".repeat(1 << 20) + "needle" + "y".repeat(1 << 20));

    assertThat(BodyFilter.of("need+le\\w*$").matches(body)).isTrue();
    assertThat(BodyFilter.of("[a-w]").matches(body)).isTrue();
  }

  @Test
  void theCallStopsAtItsTimeBudgetFromTheFirstBodyOn() {
    AtomicLong nanos = new AtomicLong();
    BodyFilter filter =
        BodyFilter.of("a", BodyFilter.STEPS_PER_BODY, Duration.ofSeconds(10), nanos::get);
    assertThat(filter.matches(utf8("a"))).isTrue(); // the budget starts here
    nanos.addAndGet(Duration.ofSeconds(10).toNanos());
    assertThat(filter.matches(utf8("b"))).isFalse();

    nanos.incrementAndGet();
    QueueException e = catchThrowableOfType(QueueException.class, () -> filter.matches(utf8("a")));

    assertThat(e.getMessage()).contains("time budget").contains("10000 ms");
  }

  @Test
  void theTimeBudgetAlsoStopsASearchInsideOneBody() {
    AtomicLong nanos = new AtomicLong();
    // Every read of the clock is a second later: the search's first look at the clock ends the
    // call.
    BodyFilter filter =
        BodyFilter.of(
            "((a+)+)\\2b",
            Long.MAX_VALUE,
            Duration.ofMillis(1500),
            () -> nanos.getAndAdd(1_000_000_000L));

    assertThatThrownBy(() -> filter.matches(utf8("a".repeat(40))))
        .hasMessageContaining("time budget");
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
