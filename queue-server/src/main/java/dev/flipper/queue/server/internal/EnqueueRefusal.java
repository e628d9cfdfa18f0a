package dev.flipper.queue.server.internal;

import dev.flipper.queue.thrift.ErrorCode;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.PinLaterException;
import java.nio.ByteBuffer;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Answers an {@code enqueueJobs} whose frame the server refused (too large, or no memory for it
 * now) with {@code PinLaterException(ENQUEUE_REJECTED)}, as a framed reply to the same sequence id,
 * so the client gets a clear error and keeps its connection. Any other refused call gets no answer
 * (null): its connection closes.
 */
final class EnqueueRefusal implements FrameRules.RefusalAnswer {
  static final EnqueueRefusal INSTANCE = new EnqueueRefusal();

  private EnqueueRefusal() {}

  @Override
  public byte[] answer(byte[] frameStart, int frameBytes, String why) {
    try {
      TMessage call =
          new TBinaryProtocol(new TMemoryInputTransport(frameStart), false, true)
              .readMessageBegin();
      if (call.type != TMessageType.CALL || !"enqueueJobs".equals(call.name)) {
        return null;
      }
      TMemoryBuffer out = new TMemoryBuffer(256);
      TBinaryProtocol protocol = new TBinaryProtocol(out, false, true);
      protocol.writeMessageBegin(new TMessage(call.name, TMessageType.REPLY, call.seqid));
      new PinLater.enqueueJobs_result()
          .setE(new PinLaterException(ErrorCode.ENQUEUE_REJECTED, why))
          .write(protocol);
      protocol.writeMessageEnd();
      return ByteBuffer.allocate(4 + out.length())
          .putInt(out.length())
          .put(out.getArray(), 0, out.length())
          .array();
    } catch (TTransportException e) {
      return NEED_MORE; // the header goes on beyond the bytes that arrived
    } catch (TException | RuntimeException e) {
      return null;
    }
  }
}
