package dev.flipper.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

class ValidationTest {

  @Test
  void queueNames() {
    assertThatCode(() -> Validation.queueName("Mail_Queue_2")).doesNotThrowAnyException();
    assertThat(
            catchThrowableOfType(QueueException.class, () -> Validation.queueName("a.b"))
                .errorCode())
        .isEqualTo(ErrorCode.QUEUE_NAME_INVALID);
    assertThat(
            catchThrowableOfType(QueueException.class, () -> Validation.queueName("x".repeat(101)))
                .errorCode())
        .isEqualTo(ErrorCode.QUEUE_NAME_TOO_LONG);
  }

  @Test
  void limitsSayTheAllowedRange() {
    QueueException e =
        catchThrowableOfType(QueueException.class, () -> Validation.limit(0, 10_000, "scan"));

    assertThat(e.getMessage()).isEqualTo("invalid request: scan limit must be 1..10000, was 0");
  }

  @Test
  void prioritiesOutsideTheLevelsAreNotSupported() {
    Validation validation = new Validation(3, 100);

    QueueException e =
        catchThrowableOfType(QueueException.class, () -> validation.priority(4, "job #2"));

    assertThat(e.errorCode()).isEqualTo(ErrorCode.PRIORITY_NOT_SUPPORTED);
    assertThat(e.getMessage()).isEqualTo("priority 4 of job #2 is not supported; allowed: 1..3");
  }

  @Test
  void truncateKeepsTheFirstCharacters() {
    assertThat(Validation.truncate("abcdef", 3)).isEqualTo("abc");
    assertThat(Validation.truncate("ab", 3)).isEqualTo("ab");
  }
}
