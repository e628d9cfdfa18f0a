package dev.flipper.queue.server.internal;

import dev.flipper.thrift.PeerFaults;
import org.apache.thrift.TAsyncProcessor;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.server.AbstractNonblockingServer.AsyncFrameBuffer;

/**
 * The server's processor, for calls whose arguments cannot be read: libthrift answers a malformed
 * field with a PROTOCOL_ERROR itself, but a call cut short inside its frame throws, and libthrift's
 * server would log that with a stack trace, one per bad frame. Here it is a counted peer fault (one
 * log line a minute at most) and the connection closes. Thread-safe if the wrapped processor is.
 */
public final class QuietAsyncProcessor implements TAsyncProcessor, TProcessor {
  private final TAsyncProcessor asyncProcessor;
  private final TProcessor processor;
  private final PeerFaults faults;

  public <P extends TAsyncProcessor & TProcessor> QuietAsyncProcessor(
      P processor, PeerFaults faults) {
    this.asyncProcessor = processor;
    this.processor = processor;
    this.faults = faults;
  }

  @Override
  public void process(AsyncFrameBuffer frame) {
    try {
      asyncProcessor.process(frame);
    } catch (TException | RuntimeException e) {
      faults.fault(
          "malformed_call",
          GatedSocket.lastFrameFrom(),
          "a call whose arguments could not be read: " + e);
      frame.close();
    }
  }

  @Override
  public void process(TProtocol in, TProtocol out) throws TException {
    processor.process(in, out);
  }
}
