package dev.flipper.queue.redis.internal;

/**
 * Sorted-set members are local ids as 19 zero-padded ASCII digits: Redis orders members of equal
 * score lexically, and padding makes that the numeric order, so equal run-afters claim in id order
 * and scans page by (run-after, id) exactly.
 */
public final class Members {
  static final int WIDTH = 19;

  private Members() {}

  public static byte[] of(long localId) {
    if (localId < 0) {
      throw new IllegalArgumentException("local id must be >= 0, was " + localId);
    }
    byte[] member = new byte[WIDTH];
    long rest = localId;
    for (int i = WIDTH - 1; i >= 0; i--) {
      member[i] = (byte) ('0' + (rest % 10));
      rest /= 10;
    }
    return member;
  }

  public static long parse(byte[] member) {
    long id = 0;
    for (byte digit : member) {
      if (digit < '0' || digit > '9') {
        throw new IllegalStateException(
            "sorted-set member '"
                + new String(member, java.nio.charset.StandardCharsets.US_ASCII)
                + "' is not a local id; the key space holds foreign data (indicates a bug or a shared key prefix)");
      }
      id = id * 10 + (digit - '0');
    }
    return id;
  }
}
