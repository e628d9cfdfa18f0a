package dev.flipper.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobDescriptorTest {

  @Test
  void roundTripsThroughItsText() {
    JobDescriptor descriptor = new JobDescriptor("test_queue", "1d1", 3, 12_345L);

    assertThat(descriptor.toString()).isEqualTo("test_queue:s1d1:p3:12345");
    assertThat(JobDescriptor.parse(descriptor.toString())).isEqualTo(descriptor);
    assertThat(JobDescriptor.parse("myq:s2:p0:0")).isEqualTo(new JobDescriptor("myq", "2", 0, 0));
    assertThat(JobDescriptor.parse("q:sshard.with.dots:p1:" + Long.MAX_VALUE).localId())
        .isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "q",
        "q:s1:p1",
        "q:s1:p1:1:2",
        ":s1:p1:1",
        "q::p1:1",
        "q:s:p1:1",
        "q:1:p1:1",
        "q:s1:1:1",
        "q:s1:p:1",
        "q:s1:px:1",
        "q:s1:p1:x",
        "q:s1:p1:",
        "q:s1:p-1:1",
        "q:s1:p1:-1",
        "q:s1:p99999999999:1",
        "q:s1:p1:99999999999999999999",
        "q:s1:p1:1.5"
      })
  void rejectsMalformedTextQuotingItAndTheExpectedForm(String text) {
    QueueException e = catchThrowableOfType(QueueException.class, () -> JobDescriptor.parse(text));

    assertThat(e).isNotNull();
    assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN);
    assertThat(e.getMessage())
        .contains("malformed job descriptor '" + text + "'")
        .contains("<queue>:s<shard>:p<priority>:<localId>");
  }

  @Test
  void rejectsNullWithAQueueExceptionNotANullPointerException() {
    QueueException e = catchThrowableOfType(QueueException.class, () -> JobDescriptor.parse(null));

    assertThat(e.getMessage()).contains("malformed job descriptor 'null'");
  }

  @Test
  void constructorRejectsImpossibleParts() {
    assertThat(
            catchThrowableOfType(QueueException.class, () -> new JobDescriptor("", "1", 1, 1))
                .getMessage())
        .contains("queue name");
    assertThat(
            catchThrowableOfType(QueueException.class, () -> new JobDescriptor("q", "a:b", 1, 1))
                .getMessage())
        .contains("shard name");
    assertThat(
            catchThrowableOfType(QueueException.class, () -> new JobDescriptor("q", "1", -1, 1))
                .getMessage())
        .contains("priority");
    assertThat(
            catchThrowableOfType(QueueException.class, () -> new JobDescriptor("q", "1", 1, -1))
                .getMessage())
        .contains("local id");
  }
}
