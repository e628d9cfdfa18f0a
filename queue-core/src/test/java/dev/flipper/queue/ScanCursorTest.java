package dev.flipper.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.spi.ScanBound;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScanCursorTest {

  @Test
  void tokenRoundTripsAndStaysReadable() {
    ScanCursor cursor = new ScanCursor(1_710_072_000_123L, "shard.7", 2, 42);

    assertThat(cursor.token()).isEqualTo("v1.1710072000123.2.42.shard.7");
    assertThat(ScanCursor.parse(cursor.token())).isEqualTo(cursor);
    assertThat(ScanCursor.parse(new ScanCursor(-5, "1", 1, 0).token()))
        .isEqualTo(new ScanCursor(-5, "1", 1, 0));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "0x",
        "-2",
        "v1",
        "v1.1.1.1",
        "v1.1.1.1.",
        "v2.1.1.1.s",
        "v1.a.1.1.s",
        "v1.1.b.1.s",
        "v1.1.1.c.s",
        "v1.1.1.-1.s",
        "V1.1.1.1.s"
      })
  void malformedTokensAreContinuationInvalid(String token) {
    QueueException e = catchThrowableOfType(QueueException.class, () -> ScanCursor.parse(token));

    assertThat(e.errorCode()).isEqualTo(ErrorCode.CONTINUATION_INVALID);
    assertThat(e.getMessage()).contains("'" + token + "'").contains("\"0\"");
  }

  @Test
  void orderIsRunAfterDescendingThenShardThenPriorityThenLocalIdDescending() {
    List<ScanCursor.Entry> entries =
        new ArrayList<>(
            List.of(
                new ScanCursor.Entry("2", 1, 100, 5),
                new ScanCursor.Entry("1", 2, 100, 9),
                new ScanCursor.Entry("1", 1, 100, 3),
                new ScanCursor.Entry("1", 1, 100, 7),
                new ScanCursor.Entry("9", 3, 200, 1),
                new ScanCursor.Entry("1", 1, 50, 99)));

    entries.sort(ScanCursor.ORDER);

    assertThat(entries)
        .containsExactly(
            new ScanCursor.Entry("9", 3, 200, 1),
            new ScanCursor.Entry("1", 1, 100, 7),
            new ScanCursor.Entry("1", 1, 100, 3),
            new ScanCursor.Entry("1", 2, 100, 9),
            new ScanCursor.Entry("2", 1, 100, 5),
            new ScanCursor.Entry("1", 1, 50, 99));
  }

  @Test
  void boundsResumeExactlyAfterTheCursorForEverySource() {
    Random random = new Random(7);
    List<ScanCursor.Entry> all = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      all.add(
          new ScanCursor.Entry(
              "s" + random.nextInt(3), 1 + random.nextInt(3), random.nextInt(5), i));
    }
    all.sort(ScanCursor.ORDER);

    for (int cut = 0; cut < all.size(); cut++) {
      ScanCursor cursor = ScanCursor.after(all.get(cut));
      List<ScanCursor.Entry> admitted = new ArrayList<>();
      for (ScanCursor.Entry entry : all) {
        ScanBound bound = cursor.boundFor(entry.shard(), entry.priority());
        if (bound.admits(entry.runAfterMillis(), entry.localId())) {
          admitted.add(entry);
        }
      }
      assertThat(admitted).as("after position %d", cut).isEqualTo(all.subList(cut + 1, all.size()));
    }
  }
}
