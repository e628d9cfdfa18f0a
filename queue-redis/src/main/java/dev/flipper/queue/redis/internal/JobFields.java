package dev.flipper.queue.redis.internal;

import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.StoredJob;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The fields of a job hash and how to read them. Numbers are decimal ASCII, times integer epoch ms,
 * text UTF-8, the body raw bytes. The Lua scripts use the same names.
 *
 * <pre>
 *   b   body                    s   state code (JobState.code)
 *   aa  attempts allowed        ar  attempts remaining
 *   cs  custom status           ca  created at
 *   ra  run after               ua  updated at
 *   cd  claim descriptor        src claiming source (absent when unclaimed)
 *   uk  name of the unique key the job holds while active (absent: none, or released)
 * </pre>
 *
 * A new job stores only b, aa, ca, ra (and cs if not empty); an absent field means its default: s =
 * PENDING, ar = aa, ua = ca, cs = "". That keeps the hot enqueue path to four fields. A hash
 * without aa does not exist (deleted or evicted).
 */
public final class JobFields {
  static final byte[] BODY = f("b");
  static final byte[] STATE = f("s");
  static final byte[] ATTEMPTS_ALLOWED = f("aa");
  static final byte[] ATTEMPTS_REMAINING = f("ar");
  static final byte[] CUSTOM_STATUS = f("cs");
  static final byte[] CREATED_AT = f("ca");
  static final byte[] RUN_AFTER = f("ra");
  static final byte[] UPDATED_AT = f("ua");
  static final byte[] CLAIM_DESCRIPTOR = f("cd");

  /** What {@link #decode} reads, in this order, optionally followed by the body. */
  static final byte[][] INFO = {
    STATE,
    ATTEMPTS_ALLOWED,
    ATTEMPTS_REMAINING,
    CUSTOM_STATUS,
    CREATED_AT,
    RUN_AFTER,
    UPDATED_AT,
    CLAIM_DESCRIPTOR
  };

  static final byte[][] INFO_AND_BODY = {
    STATE,
    ATTEMPTS_ALLOWED,
    ATTEMPTS_REMAINING,
    CUSTOM_STATUS,
    CREATED_AT,
    RUN_AFTER,
    UPDATED_AT,
    CLAIM_DESCRIPTOR,
    BODY
  };

  private JobFields() {}

  /**
   * A job from an HMGET of {@link #INFO} (or {@link #INFO_AND_BODY}), or null if the hash does not
   * exist (deleted or evicted).
   */
  static StoredJob decode(long localId, int priority, List<byte[]> values) {
    byte[] attemptsAllowed = values.get(1);
    if (attemptsAllowed == null) {
      return null;
    }
    byte[] body = values.size() > INFO.length ? values.get(INFO.length) : null;
    byte[] createdAt = values.get(4);
    return new StoredJob(
        localId,
        priority,
        values.get(0) == null ? JobState.PENDING : JobState.fromCode((int) number(values.get(0))),
        (int) number(attemptsAllowed),
        (int) number(values.get(2) == null ? attemptsAllowed : values.get(2)),
        text(values.get(3)),
        number(createdAt),
        number(values.get(5)),
        number(values.get(6) == null ? createdAt : values.get(6)),
        values.get(7) == null ? null : text(values.get(7)),
        body);
  }

  static long number(byte[] value) {
    if (value == null) {
      return 0;
    }
    long result = 0;
    int i = 0;
    boolean negative = value.length > 0 && value[0] == '-';
    if (negative) {
      i = 1;
    }
    for (; i < value.length; i++) {
      byte digit = value[i];
      if (digit < '0' || digit > '9') {
        // Not an integer (never written by Flipper): fall back to the general parser for a clear
        // error.
        return (long) Double.parseDouble(new String(value, StandardCharsets.US_ASCII));
      }
      result = result * 10 + (digit - '0');
    }
    return negative ? -result : result;
  }

  static String text(byte[] value) {
    return value == null ? "" : new String(value, StandardCharsets.UTF_8);
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] ascii(long number) {
    return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] f(String name) {
    return name.getBytes(StandardCharsets.US_ASCII);
  }
}
