package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.StoredJob;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Bodies are bytes: whatever goes in comes out unchanged (the original decoded them as UTF-8). */
class BinaryBodyTest extends RedisStoreTestBase {

  @Test
  void sixtyFourKibOfRandomBytesSurviveEveryPath() {
    byte[] body = randomBytes(64 * 1024, 42);
    long id = enqueue(job(body, 1, T0, 2));

    assertThat(lookup(1, id).body()).isEqualTo(body);
    assertThat(shard.peek(QUEUE, 1, 1, T0).get(0).body()).isEqualTo(body);
    List<StoredJob> claimed = shard.claim(QUEUE, 1, 1, new Claim("d", "w", T0));
    assertThat(claimed.get(0).body()).isEqualTo(body);

    byte[] replacement = randomBytes(64 * 1024, 7);
    assertThat(
            shard.checkpoint(
                QUEUE,
                "w",
                new CheckpointRecord(new JobRef(1, id), replacement, false, T0, null, null),
                T0))
        .isTrue();
    assertThat(lookup(1, id).body()).isEqualTo(replacement);
  }

  @Test
  void invalidUtf8AndEmptyBodiesRoundTripAndFilterAsReplacementCharacters() {
    byte[] invalid = {
      (byte) 0xFF,
      (byte) 0xFE,
      0,
      (byte) 0xC0,
      (byte) 0x80,
      'o',
      'k',
      (byte) 0xED,
      (byte) 0xA0,
      (byte) 0x80
    };
    long bad = enqueue(job(invalid, 1, T0, 2));
    long empty = enqueue(job(new byte[0], 1, T0, 2));

    assertThat(lookup(1, bad).body()).isEqualTo(invalid);
    assertThat(lookup(1, empty).body()).isEmpty();
    assertThat(
            shard.count(
                QUEUE, 1, JobState.PENDING, false, BodyFilter.of("\uFFFD\uFFFD\u0000"), T0, 10))
        .isEqualTo(1);
    assertThat(
            shard.scan(
                QUEUE, 1, JobState.PENDING, false, BodyFilter.of("ok"), T0, ScanBound.START, 10))
        .extracting(StoredJob::localId)
        .containsExactly(bad);
    assertThat(shard.claim(QUEUE, 1, 2, new Claim("d", "w", T0)))
        .extracting(StoredJob::body)
        .containsExactly(invalid, new byte[0]);
  }

  static byte[] randomBytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    bytes[0] = (byte) 0xFF; // never valid in UTF-8
    bytes[1] = (byte) 0xC3; // a lead byte followed by a non-continuation byte
    bytes[2] = 'A';
    return bytes;
  }
}
