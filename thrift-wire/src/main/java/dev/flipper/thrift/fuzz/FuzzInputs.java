package dev.flipper.thrift.fuzz;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;

/**
 * Malformed inputs for Flipper's Thrift servers: random, truncated, mutated and oversized messages
 * built from a few valid calls, and the loop that writes them over many connections. Shared by the
 * servers' fuzz tests and {@code flipper bench fuzz}. Stateless; each caller brings its own seeded
 * {@link Random}.
 */
public final class FuzzInputs {
  private FuzzInputs() {}

  /** One input for a framed server (the queue server): frames with bad lengths and bad payloads. */
  public static byte[] framed(Random random, List<byte[]> valid, int maxFrame) {
    byte[] call = valid.get(random.nextInt(valid.size()));
    switch (random.nextInt(7)) {
      case 0: // pure noise, framed or not
        return bytes(random, random.nextInt(200));
      case 1: // random payload in a correct frame
        return frame(bytes(random, 1 + random.nextInt(2000)));
      case 2: // valid call cut short, framed with its short length
        return frame(Arrays.copyOf(call, random.nextInt(call.length)));
      case 3: // valid call with a few bytes flipped
        return frame(flipped(random, call));
      case 4: // huge, negative or zero length prefix
        int length =
            switch (random.nextInt(4)) {
              case 0 -> Integer.MAX_VALUE;
              case 1 -> maxFrame + 1 + random.nextInt(1 << 20);
              case 2 -> -1 - random.nextInt(1000);
              default -> 0;
            };
        return ByteBuffer.allocate(4 + 16).putInt(length).put(bytes(random, 16)).array();
      case 5: // a frame that promises more than it delivers
        byte[] partial = bytes(random, random.nextInt(100));
        return ByteBuffer.allocate(4 + partial.length)
            .putInt(partial.length + 1 + random.nextInt(maxFrame / 2))
            .put(partial)
            .array();
      default: // a valid call, so well-formed traffic is mixed in
        return frame(call);
    }
  }

  /**
   * One input for an unframed server (the token master): messages with bad lengths and bad fields.
   */
  public static byte[] unframed(Random random, List<byte[]> valid) {
    byte[] call = valid.get(random.nextInt(valid.size()));
    switch (random.nextInt(6)) {
      case 0: // pure noise
        return bytes(random, random.nextInt(200));
      case 1: // valid call cut short
        return Arrays.copyOf(call, random.nextInt(call.length));
      case 2: // valid call with a few bytes flipped
        return flipped(random, call);
      case 3: // a length field (at a random offset) replaced by something huge or negative
        byte[] sized = call.clone();
        int at = random.nextInt(Math.max(1, sized.length - 4));
        int length =
            random.nextBoolean()
                ? Integer.MAX_VALUE - random.nextInt(1000)
                : -1 - random.nextInt(1000);
        ByteBuffer.wrap(sized, at, 4).putInt(length);
        return sized;
      case 4: // a valid start followed by noise
        byte[] start = Arrays.copyOf(call, call.length / 2);
        byte[] noise = bytes(random, random.nextInt(100));
        byte[] both = Arrays.copyOf(start, start.length + noise.length);
        System.arraycopy(noise, 0, both, start.length, noise.length);
        return both;
      default: // a valid call, so well-formed traffic is mixed in
        return call;
    }
  }

  /**
   * Opens connections to 127.0.0.1:port and writes 1-20 inputs on each (until the server closes it)
   * until the shared budget {@code remaining} is used up. Several threads may share one budget.
   */
  public static void send(
      int port, Random random, AtomicInteger remaining, Function<Random, byte[]> input) {
    while (remaining.get() > 0) {
      try (Socket socket = new Socket("127.0.0.1", port)) {
        socket.setSoLinger(
            true, 0); // reset on close: no TIME_WAIT pile-up over thousands of connections
        OutputStream out = socket.getOutputStream();
        int perConnection = 1 + random.nextInt(20);
        for (int i = 0; i < perConnection && remaining.getAndDecrement() > 0; i++) {
          out.write(input.apply(random));
        }
        out.flush();
      } catch (IOException closedByServer) {
        // the server may close the connection while we still write: that is the point
      }
    }
  }

  /** A binary-protocol CALL message with the given args struct; strict or old non-strict header. */
  public static byte[] call(String method, TBase<?, ?> args, int seqid, boolean strict)
      throws TException {
    TMemoryBuffer buffer = new TMemoryBuffer(256);
    TProtocol protocol = new TBinaryProtocol(buffer, false, strict);
    protocol.writeMessageBegin(new TMessage(method, TMessageType.CALL, seqid));
    args.write(protocol);
    protocol.writeMessageEnd();
    return Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  /** The payload behind a 4-byte length, as the framed transport sends it. */
  public static byte[] frame(byte[] payload) {
    return ByteBuffer.allocate(4 + payload.length).putInt(payload.length).put(payload).array();
  }

  private static byte[] flipped(Random random, byte[] call) {
    byte[] mutated = call.clone();
    for (int i = 0; i < 1 + random.nextInt(4); i++) {
      mutated[random.nextInt(mutated.length)] ^= (byte) (1 + random.nextInt(255));
    }
    return mutated;
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
