package dev.flipper.bench.suite;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** The suite's 200-byte job body: the time the job was meant to be enqueued (System.nanoTime), then padding. */
final class Body {
  static final int SIZE = 200;

  private Body() {}

  static byte[] stamped(long nanoTime) {
    byte[] body = new byte[SIZE];
    Arrays.fill(body, (byte) 'x');
    ByteBuffer.wrap(body).putLong(nanoTime);
    return body;
  }

  static long stamp(byte[] body) {
    return ByteBuffer.wrap(body).getLong();
  }
}
