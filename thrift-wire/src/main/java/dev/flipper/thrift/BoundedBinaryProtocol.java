package dev.flipper.thrift;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TTransport;

/**
 * The binary protocol whose strings and binaries cost memory only for the bytes that arrived.
 * libthrift allocates a string's declared length before reading it, so over an unframed socket a
 * 60-byte message declaring a 95 MB string costs 95 MB. Here a length above the limit fails at once
 * ({@code SIZE_LIMIT}, the connection closes) and a length within it is read in chunks, the buffer
 * growing as the bytes come. Container lengths keep libthrift's checks (the container limit, and
 * the declared elements must fit in what the transport may still read). Not thread-safe, as every
 * protocol.
 */
public final class BoundedBinaryProtocol extends TBinaryProtocol {
  /** Bytes read before the buffer grows; a declared length costs at most this up front. */
  private static final int CHUNK = 64 * 1024;

  private final long stringLengthLimit;

  private BoundedBinaryProtocol(
      TTransport transport,
      long stringLengthLimit,
      long containerLengthLimit,
      boolean strictRead,
      boolean strictWrite) {
    super(transport, stringLengthLimit, containerLengthLimit, strictRead, strictWrite);
    this.stringLengthLimit = stringLengthLimit;
  }

  /**
   * @param strictRead false also accepts old headers without a version (Pinball's and PinLater's
   *     Python clients)
   * @param maxMessageBytes longest string or binary accepted; a server's frame or message limit
   * @param maxContainerLength most elements in one list, set or map
   */
  public static TProtocolFactory factory(
      boolean strictRead, boolean strictWrite, int maxMessageBytes, int maxContainerLength) {
    return transport ->
        new BoundedBinaryProtocol(
            transport, maxMessageBytes, maxContainerLength, strictRead, strictWrite);
  }

  @Override
  public String readString() throws TException {
    int size = readI32();
    if (size >= 0 && trans_.getBytesRemainingInBuffer() >= size) {
      String value =
          new String(trans_.getBuffer(), trans_.getBufferPosition(), size, StandardCharsets.UTF_8);
      trans_.consumeBuffer(size);
      return value;
    }
    return readStringBody(size);
  }

  @Override
  public String readStringBody(int size) throws TException {
    return new String(readBytes(size), StandardCharsets.UTF_8);
  }

  @Override
  public ByteBuffer readBinary() throws TException {
    return ByteBuffer.wrap(readBytes(readI32()));
  }

  private byte[] readBytes(int size) throws TException {
    if (size < 0) {
      throw new TProtocolException(
          TProtocolException.NEGATIVE_SIZE, "negative string length " + size);
    }
    if (size > stringLengthLimit) {
      throw new TProtocolException(
          TProtocolException.SIZE_LIMIT,
          "string of "
              + size
              + " bytes is longer than the limit of "
              + stringLengthLimit
              + " bytes");
    }
    trans_.checkReadBytesAvailable(size);
    byte[] buffer = new byte[Math.min(size, CHUNK)];
    int read = 0;
    while (read < size) {
      if (read == buffer.length) {
        buffer = Arrays.copyOf(buffer, (int) Math.min(size, 2L * buffer.length));
      }
      int count = buffer.length - read;
      trans_.readAll(buffer, read, count);
      read += count;
    }
    return buffer;
  }
}
