package dev.flipper.queue.redis.internal;

import java.util.ArrayList;
import java.util.List;

/** Builds the KEYS or ARGV list of a script call; every value as bytes. Not thread-safe. */
final class Args {
  private final List<byte[]> values;

  Args(int expected) {
    this.values = new ArrayList<>(expected);
  }

  Args add(byte[] value) {
    values.add(value);
    return this;
  }

  Args add(String utf8) {
    values.add(JobFields.utf8(utf8));
    return this;
  }

  Args add(long number) {
    values.add(JobFields.ascii(number));
    return this;
  }

  Args add(boolean flag) {
    values.add(flag ? ONE : ZERO);
    return this;
  }

  List<byte[]> list() {
    return values;
  }

  private static final byte[] ONE = {'1'};
  private static final byte[] ZERO = {'0'};
}
