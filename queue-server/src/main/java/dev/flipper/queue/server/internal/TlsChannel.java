package dev.flipper.queue.server.internal;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

/**
 * TLS over one non-blocking server connection: {@link #read} and {@link #write} move plain bytes
 * while the engine turns them into records. The handshake runs inside {@link #read}, the first
 * thing a new connection is asked to do: its tasks run inline and its messages are written at once
 * (a few kilobytes, which the socket's send buffer takes; if it does not, they go out with the next
 * read or write call). Everything that arrived is decrypted before a read returns, so no bytes wait
 * in here for a readiness event that will not come; the exception are bytes of a next call sent
 * before the answer to this one (Thrift clients wait for the answer). Used by one selector thread
 * at a time.
 */
final class TlsChannel {
  private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

  private final SocketChannel channel;
  private final SSLEngine engine;
  private ByteBuffer netIn; // records read, not yet decrypted (write mode)
  private ByteBuffer plainIn; // decrypted, not yet taken (write mode)
  private ByteBuffer netOut; // records made, not yet written (read mode)

  /** Plain bytes of the caller's buffer whose records are still in {@link #netOut}. */
  private int heldBack;

  TlsChannel(SocketChannel channel, SSLEngine engine) throws SSLException {
    this.channel = channel;
    this.engine = engine;
    engine.beginHandshake(); // until then the engine says it is not handshaking
    SSLSession session = engine.getSession();
    netIn = ByteBuffer.allocate(session.getPacketBufferSize());
    plainIn = ByteBuffer.allocate(session.getApplicationBufferSize());
    netOut = ByteBuffer.allocate(session.getPacketBufferSize()).flip();
  }

  /**
   * Runs the handshake as far as the bytes that arrived allow; true once it is complete, so that
   * {@link #session()} names a verified peer. SSLException if the peer's certificate is refused.
   */
  boolean handshake() throws IOException {
    return flush() && runHandshake();
  }

  /** Tells the peer why its handshake failed (the engine's alert), if the socket takes it now. */
  void sendAlert() {
    try {
      engine.closeOutbound();
      wrapHandshake();
    } catch (IOException | RuntimeException e) {
      // the connection closes anyway
    }
  }

  SSLSession session() {
    return engine.getSession();
  }

  /**
   * Plain bytes into {@code dst}: how many, 0 if none arrived yet, -1 at the end of the stream (or
   * the peer's close_notify). SSLException if the peer breaks the protocol or its certificate is
   * refused.
   */
  int read(ByteBuffer dst) throws IOException {
    int total = 0;
    while (dst.hasRemaining()) {
      if (plainIn.position() > 0) {
        total += take(dst);
        continue;
      }
      netIn.flip();
      SSLEngineResult result;
      try {
        result = engine.unwrap(netIn, plainIn);
      } finally {
        netIn.compact();
      }
      runTasks();
      if (!afterUnwrap()) {
        return total;
      }
      switch (result.getStatus()) {
        case OK -> {}
        case CLOSED -> {
          return total > 0 ? total : -1;
        }
        case BUFFER_OVERFLOW ->
            plainIn = grow(plainIn, engine.getSession().getApplicationBufferSize());
        case BUFFER_UNDERFLOW -> {
          int read = fill();
          if (read < 0) {
            return total > 0 ? total : -1;
          }
          if (read == 0) {
            return total;
          }
        }
      }
    }
    return total;
  }

  /**
   * Writes plain bytes of {@code src}; returns how many it took (0 while earlier records still wait
   * for the socket), -1 if the connection is closed. {@code src}'s position moves only once their
   * records are written, so a caller that sees it empty knows everything went out; it must pass the
   * same buffer again until then.
   */
  int write(ByteBuffer src) throws IOException {
    if (!flush()) {
      return 0;
    }
    int taken = heldBack;
    src.position(src.position() + heldBack);
    heldBack = 0;
    while (src.hasRemaining()) {
      ByteBuffer view = src.duplicate();
      netOut.clear();
      SSLEngineResult result;
      try {
        result = engine.wrap(view, netOut);
      } finally {
        netOut.flip();
      }
      if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
        return -1;
      }
      if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
        netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).flip();
        continue;
      }
      if (!flush()) {
        heldBack = result.bytesConsumed();
        return taken;
      }
      src.position(src.position() + result.bytesConsumed());
      taken += result.bytesConsumed();
    }
    return taken;
  }

  /** Runs the handshake as far as the bytes that arrived allow; true once it is complete. */
  private boolean runHandshake() throws IOException {
    while (true) {
      switch (engine.getHandshakeStatus()) {
        case NOT_HANDSHAKING, FINISHED -> {
          return true;
        }
        case NEED_TASK -> runTasks();
        case NEED_WRAP -> {
          if (!wrapHandshake()) {
            return false;
          }
        }
        case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
          netIn.flip();
          SSLEngineResult result;
          try {
            result = engine.unwrap(netIn, plainIn);
          } finally {
            netIn.compact();
          }
          if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new EOFException("the peer closed the connection during the TLS handshake");
          }
          if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
            plainIn = grow(plainIn, engine.getSession().getApplicationBufferSize());
          }
          if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
            int read = fill();
            if (read < 0) {
              throw new EOFException("the peer closed the connection during the TLS handshake");
            }
            if (read == 0) {
              return false;
            }
          }
        }
      }
    }
  }

  /**
   * After an unwrap of application data: sends what the engine has to say (TLS 1.3 session tickets,
   * key updates). False if that cannot be written now.
   */
  private boolean afterUnwrap() throws IOException {
    SSLEngineResult.HandshakeStatus status = engine.getHandshakeStatus();
    while (status == SSLEngineResult.HandshakeStatus.NEED_WRAP
        || status == SSLEngineResult.HandshakeStatus.NEED_TASK) {
      if (status == SSLEngineResult.HandshakeStatus.NEED_TASK) {
        runTasks();
      } else if (!wrapHandshake()) {
        return false;
      }
      status = engine.getHandshakeStatus();
    }
    return true;
  }

  /** Makes the engine's next handshake message and writes it; false if it could not all go out. */
  private boolean wrapHandshake() throws IOException {
    netOut.clear();
    SSLEngineResult result;
    try {
      result = engine.wrap(NOTHING, netOut);
    } finally {
      netOut.flip();
    }
    if (result.getStatus() == SSLEngineResult.Status.CLOSED && !netOut.hasRemaining()) {
      throw new SSLException("the TLS engine closed during the handshake");
    }
    if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
      netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).flip();
      return wrapHandshake();
    }
    return flush();
  }

  /** Writes waiting records; true once none wait. */
  private boolean flush() throws IOException {
    while (netOut.hasRemaining()) {
      if (channel.write(netOut) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Reads records from the socket; -1 at its end. */
  private int fill() throws IOException {
    if (!netIn.hasRemaining()) {
      netIn = grow(netIn, engine.getSession().getPacketBufferSize());
    }
    return channel.read(netIn);
  }

  /** Moves decrypted bytes into {@code dst}. */
  private int take(ByteBuffer dst) {
    plainIn.flip();
    int count = Math.min(plainIn.remaining(), dst.remaining());
    ByteBuffer slice = plainIn.slice(plainIn.position(), count);
    dst.put(slice);
    plainIn.position(plainIn.position() + count);
    plainIn.compact();
    return count;
  }

  private void runTasks() {
    Runnable task;
    while ((task = engine.getDelegatedTask()) != null) {
      task.run();
    }
  }

  /** {@code buffer} (write mode) with room for at least {@code needed} more bytes. */
  private static ByteBuffer grow(ByteBuffer buffer, int needed) {
    ByteBuffer larger = ByteBuffer.allocate(buffer.position() + Math.max(needed, 1024));
    return larger.put(buffer.flip());
  }
}
