package dev.flipper.workflow.master.server;

import dev.flipper.thrift.ConnectionLimits;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * A master connection whose requests must arrive whole within the message-read time-out, counted
 * from their first byte: between requests a read waits up to the idle time-out, inside one it waits
 * only for what is left of the time-out. Without it, a peer sending a byte every few minutes would
 * hold its connection thread for ever (each byte resets the idle time-out). A request ends when the
 * server flushes its answer. Used by one connection thread.
 */
final class DeadlineSocket extends TSocket implements ConnectionLimits.Connection {
  private final Socket raw;
  private final InetSocketAddress remote;
  private volatile boolean closed;
  private volatile long idleSinceNanos = System.nanoTime();
  private final int idleMillis;
  private final long messageReadNanos;
  private final Runnable onTimeout;
  private long messageDeadlineNanos;
  private boolean inMessage;

  /**
   * @param onTimeout called once when a request did not arrive in time (the connection then closes)
   */
  DeadlineSocket(Socket socket, int idleMillis, long messageReadNanos, Runnable onTimeout)
      throws TTransportException {
    super(socket);
    this.raw = socket;
    this.remote = (InetSocketAddress) socket.getRemoteSocketAddress();
    this.idleMillis = idleMillis;
    this.messageReadNanos = messageReadNanos;
    this.onTimeout = onTimeout;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    if (inMessage) {
      long leftMillis = (messageDeadlineNanos - System.nanoTime()) / 1_000_000;
      if (leftMillis <= 0) {
        return timedOut();
      }
      soTimeout((int) Math.min(leftMillis, Integer.MAX_VALUE));
    } else {
      soTimeout(idleMillis);
    }
    int read;
    try {
      read = super.read(buf, off, len);
    } catch (TTransportException e) {
      if (inMessage && e.getType() == TTransportException.TIMED_OUT) {
        return timedOut();
      }
      throw e;
    }
    if (read > 0 && !inMessage) {
      inMessage = true;
      idleSinceNanos = ConnectionLimits.BUSY;
      messageDeadlineNanos = System.nanoTime() + messageReadNanos;
    }
    return read;
  }

  @Override
  public void flush() throws TTransportException {
    inMessage = false;
    super.flush();
    idleSinceNanos = System.nanoTime();
  }

  /**
   * Closes the socket without flushing: every answer was flushed when it was complete, and flushing
   * into a connection the peer reset would make libthrift log a warning with a stack trace per
   * connection.
   */
  @Override
  public void close() {
    closed = true;
    outputStream_ = null;
    super.close();
  }

  /**
   * Whether close() was called. Other threads ask this and {@link #peer()} instead of TSocket's
   * isOpen() and getSocket(): those read a field close() clears, and getSocket() on a closed
   * TSocket even makes a new socket.
   */
  @Override
  public boolean closed() {
    return closed;
  }

  @Override
  public InetAddress peer() {
    return remote.getAddress();
  }

  /** The peer's address and port, fixed at accept. */
  InetSocketAddress remote() {
    return remote;
  }

  @Override
  public long idleSinceNanos() {
    return idleSinceNanos;
  }

  /** Evicted for a new connection: ends like {@link #shutdownInput()}. */
  @Override
  public void evict() {
    shutdownInput();
  }

  /**
   * Ends the input so the connection thread blocked reading the next request wakes up and closes
   * quietly.
   */
  void shutdownInput() {
    try {
      raw.shutdownInput();
    } catch (IOException e) {
      close();
    }
  }

  private int timedOut() throws TTransportException {
    onTimeout.run();
    throw new TTransportException(
        TTransportException.TIMED_OUT, "request not read within the message-read time-out");
  }

  private void soTimeout(int millis) throws TTransportException {
    try {
      getSocket().setSoTimeout(Math.max(1, millis));
    } catch (SocketException e) {
      throw new TTransportException(TTransportException.NOT_OPEN, e);
    }
  }
}
