package dev.flipper.queue.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import java.nio.charset.StandardCharsets;
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

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
