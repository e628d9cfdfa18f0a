package dev.flipper.workflow.master.server;

import dev.flipper.thrift.PeerFaults;
import java.net.InetSocketAddress;
import java.net.SocketException;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.transport.TTransportException;

/**
 * The master's processor for connections that go wrong: libthrift's thread-pool server logs a
 * malformed request as an ERROR and a reset connection as a WARN, each with a stack trace, one per
 * connection. Here a malformed request is a counted peer fault (one log line a minute at most), a
 * peer that goes away costs nothing, and the connection ends as at end of stream, which libthrift
 * does not log. Thread-safe if the wrapped processor is.
 */
final class QuietProcessor implements TProcessor {
  private final TProcessor processor;
  private final PeerFaults faults;

  QuietProcessor(TProcessor processor, PeerFaults faults) {
    this.processor = processor;
    this.faults = faults;
  }

  @Override
  public void process(TProtocol in, TProtocol out) throws TException {
    try {
      processor.process(in, out);
    } catch (TTransportException e) {
      if (e.getType() != TTransportException.END_OF_FILE
          && e.getType() != TTransportException.TIMED_OUT
          && !(e.getCause() instanceof SocketException)) {
        faults.fault("malformed_request", peer(in), e.getMessage());
      }
      throw quietEnd();
    } catch (TProtocolException e) {
      faults.fault("malformed_request", peer(in), e.getMessage());
      throw quietEnd();
    }
  }

  private static InetSocketAddress peer(TProtocol in) {
    return in.getTransport() instanceof DeadlineSocket socket ? socket.remote() : null;
  }

  private static TTransportException quietEnd() {
    return new TTransportException(TTransportException.END_OF_FILE, "connection ended");
  }
}
