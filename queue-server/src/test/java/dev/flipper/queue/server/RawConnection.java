package dev.flipper.queue.server;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;

/** A bare TCP connection to a server, to send hand-made frames and read raw answers. */
final class RawConnection implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  RawConnection(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** A CALL message with the given args struct; strict or old non-strict header. */
  static byte[] call(String method, TBase<?, ?> args, int seqid, boolean strict) throws TException {
    TMemoryBuffer buffer = new TMemoryBuffer(256);
    TProtocol protocol = new TBinaryProtocol(buffer, false, strict);
    protocol.writeMessageBegin(new TMessage(method, TMessageType.CALL, seqid));
    args.write(protocol);
    protocol.writeMessageEnd();
    byte[] bytes = new byte[buffer.length()];
    buffer.read(bytes, 0, bytes.length);
    return bytes;
  }

  void sendFrame(byte[] payload) throws IOException {
    out.write(ByteBuffer.allocate(4).putInt(payload.length).array());
    out.write(payload);
    out.flush();
  }

  void sendRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  byte[] readFrame() throws IOException {
    int length = in.readInt();
    byte[] payload = new byte[length];
    in.readFully(payload);
    return payload;
  }

  /** The message header of a reply, and a protocol positioned on its body. */
  static Reply parse(byte[] frame) throws TException {
    TProtocol protocol = new TBinaryProtocol(new TMemoryInputTransport(frame), true, true);
    return new Reply(protocol.readMessageBegin(), protocol, frame);
  }

  /** True when the server closed the connection (end of stream or reset). */
  boolean closedByServer() {
    try {
      return in.read() < 0;
    } catch (IOException e) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  record Reply(TMessage header, TProtocol body, byte[] frame) {
    boolean isStrict() {
      return (frame[0] & 0x80) != 0;
    }
  }
}
