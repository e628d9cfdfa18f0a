package dev.flipper.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

class BoundedBinaryProtocolTest {
  private static final int DECLARED = 10 * 1024 * 1024;
  private static final TProtocolFactory BOUNDED =
      BoundedBinaryProtocol.factory(false, true, 16 << 20, 1 << 20);

  @Test
  void aDeclaredLengthCostsOnlyTheBytesThatArrived() throws Exception {
    byte[] input = declaredStringOf(DECLARED, 100);

    long bounded = bytesAllocatedReading(BOUNDED.getProtocol(stream(input)));
    long plain = bytesAllocatedReading(new TBinaryProtocol.Factory().getProtocol(stream(input)));

    assertThat(plain).as("libthrift's own protocol, for contrast").isGreaterThan(DECLARED);
    assertThat(bounded).isLessThan(1024 * 1024);
  }

  @Test
  void aLengthAboveTheLimitFailsBeforeReading() throws Exception {
    TProtocol protocol =
        BoundedBinaryProtocol.factory(false, true, 1024, 16)
            .getProtocol(stream(declaredStringOf(1025, 1025)));

    assertThatThrownBy(protocol::readString)
        .isInstanceOf(TProtocolException.class)
        .hasMessageContaining("1025 bytes is longer than the limit of 1024 bytes");
  }

  @Test
  void stringsAndBinariesRoundTripAcrossChunks() throws Exception {
    String text = "é".repeat(100_000);
    byte[] binary = new byte[300_000];
    binary[299_999] = 7;
    TMemoryBuffer written = new TMemoryBuffer(1024);
    TProtocol writer = new TBinaryProtocol(written);
    writer.writeString(text);
    writer.writeBinary(ByteBuffer.wrap(binary));
    byte[] bytes = written.getArray();

    TProtocol reader =
        BOUNDED.getProtocol(stream(java.util.Arrays.copyOf(bytes, written.length())));

    assertThat(reader.readString()).isEqualTo(text);
    assertThat(reader.readBinary().array()).isEqualTo(binary);
  }

  private static long bytesAllocatedReading(TProtocol protocol) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    assertThatThrownBy(protocol::readString).isInstanceOf(TTransportException.class);
    return threads.getCurrentThreadAllocatedBytes() - before;
  }

  private static byte[] declaredStringOf(int declared, int sent) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(declared);
    out.write(new byte[sent]);
    return bytes.toByteArray();
  }

  private static TIOStreamTransport stream(byte[] input) throws TTransportException {
    return new TIOStreamTransport(new ByteArrayInputStream(input));
  }
}
