package dev.flipper.queue.server.internal;

import dev.flipper.thrift.ConnectionLimits;
import dev.flipper.tls.Peer;
import dev.flipper.tls.TlsIdentity;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import javax.net.ssl.SSLException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TNonblockingSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * One client connection of the queue server, reading frames for libthrift's selector server under
 * Flipper's rules. It reads each frame's length itself and passes it on only when the frame may be
 * read: a frame above the frame limit, or one the {@link ReadBudget} cannot hold now, is refused
 * before any memory is set aside for it (an {@code enqueueJobs} is read to its end, discarded and
 * answered with ENQUEUE_REJECTED; any other call closes the connection). A complete frame that does
 * not start with a call header closes the connection. It remembers when it last moved bytes and
 * when its current frame started, for the idle and frame-read time-outs of {@link
 * GuardedServerSocket}. A peer that goes away closes the connection quietly.
 *
 * <p>With a {@link TlsIdentity} the bytes go through a {@link TlsChannel}: the connection first
 * completes a handshake with a certificate of the deployment's authority (counted as the fault
 * {@code tls_refused} and closed otherwise; the frame-read time-out limits how long it may take),
 * and each call it reads is then made as its peer ({@link QueueAccess}). Used by one selector
 * thread; the time stamps are read by the timer.
 */
final class GatedSocket extends TNonblockingSocket implements ConnectionLimits.Connection {
  /**
   * A refused frame is discarded up to this size, to answer it; a larger one closes the connection.
   */
  private static final int MAX_DISCARD_BYTES = 1 << 30;

  /** Enough of a refused frame for its message header (method name and sequence id). */
  private static final int PREFIX_BYTES = 256;

  private enum State {
    LENGTH,
    FRAME,
    DISCARD
  }

  private static final ThreadLocal<InetSocketAddress> FRAME_FROM = new ThreadLocal<>();

  private final InetAddress peer;
  private final InetSocketAddress remote;
  private final FrameRules rules;
  private final TlsChannel tls;
  private Peer caller; // whom the TLS handshake verified
  private final ByteBuffer length = ByteBuffer.allocate(4);
  private State state = State.LENGTH;
  private int frameLeft;
  private long reserved;
  private ByteBuffer prefix;
  private ByteBuffer scratch;
  private int refusedSize;
  private String refusal;
  private byte[] answer;
  private volatile long lastActivityNanos = System.nanoTime();
  private volatile long frameStartNanos;
  private volatile long idleSinceNanos = System.nanoTime();

  /**
   * @param identity the server's TLS identity; null: plain Thrift
   */
  GatedSocket(SocketChannel channel, InetAddress peer, FrameRules rules, TlsIdentity identity)
      throws IOException, TTransportException {
    super(channel);
    this.peer = peer;
    this.remote = (InetSocketAddress) channel.socket().getRemoteSocketAddress();
    this.rules = rules;
    setMaxFrameSize(rules.maxFrameBytes());
    this.tls = identity == null ? null : new TlsChannel(channel, identity.serverEngine());
    if (tls != null) {
      frameStartNanos = System.nanoTime(); // the handshake has the time of one frame read
    }
  }

  @Override
  public InetAddress peer() {
    return peer;
  }

  /** The peer's address and port, for fault log lines. */
  InetSocketAddress remote() {
    return remote;
  }

  @Override
  public long idleSinceNanos() {
    return idleSinceNanos;
  }

  @Override
  public boolean closed() {
    return !getSocketChannel().isOpen();
  }

  /**
   * Shuts its input down: the selector thread then reads end of stream and closes the connection
   * itself, releasing what it held for a partly read frame.
   */
  @Override
  public void evict() {
    try {
      getSocketChannel().shutdownInput();
    } catch (IOException e) {
      close();
    }
  }

  long lastActivityNanos() {
    return lastActivityNanos;
  }

  /** When the frame being read started, or 0 between frames. */
  long frameStartNanos() {
    return frameStartNanos;
  }

  @Override
  public int read(ByteBuffer buffer) {
    try {
      if (tls != null && caller == null && !handshake()) {
        return 0;
      }
      return switch (state) {
        case LENGTH -> readLength(buffer);
        case FRAME -> readFrame(buffer);
        case DISCARD -> discard();
      };
    } catch (SSLException e) {
      rules.faults().fault("tls_refused", remote, e.getMessage());
      tls.sendAlert();
      return -1;
    } catch (IOException e) {
      return -1; // the peer went away: close without a word
    }
  }

  @Override
  public int write(ByteBuffer buffer) {
    releaseReservation(); // the answer is ready, so the request frame is no longer held
    try {
      int written = writeBytes(buffer);
      touch(written);
      idleSinceNanos = System.nanoTime(); // answering: the call is done
      return written;
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    releaseReservation();
    super.close();
  }

  /** True once the handshake is complete and the peer known. */
  private boolean handshake() throws IOException {
    if (!tls.handshake()) {
      return false;
    }
    caller = Peer.of(tls.session(), peer);
    frameStartNanos = 0;
    return true;
  }

  private int readBytes(ByteBuffer buffer) throws IOException {
    return tls == null ? getSocketChannel().read(buffer) : tls.read(buffer);
  }

  private int writeBytes(ByteBuffer buffer) throws IOException {
    return tls == null ? getSocketChannel().write(buffer) : tls.write(buffer);
  }

  private int readLength(ByteBuffer frameSizeBuffer) throws IOException {
    int read = readBytes(length);
    if (read < 0) {
      return -1;
    }
    if (read > 0 && frameStartNanos == 0) {
      frameStartNanos = System.nanoTime();
      idleSinceNanos = ConnectionLimits.BUSY;
    }
    touch(read);
    if (length.hasRemaining()) {
      return 0;
    }
    int size = length.getInt(0);
    length.clear();
    if (size <= 0) {
      rules.faults().fault("bad_frame_length", remote, "a frame length of " + size);
      return -1;
    }
    if (size > rules.maxFrameBytes()) {
      return refuse(
          size,
          "frame_too_large",
          "a request of "
              + size
              + " bytes is larger than the server's frame "
              + "limit (maxFrameBytes "
              + rules.maxFrameBytes()
              + "); send fewer or smaller jobs per call");
    }
    long admitted = rules.budget().admit(peer, size + 4L);
    if (admitted < 0) {
      return refuse(
          size,
          "read_budget_full",
          "the server has no memory for a request of "
              + size
              + " bytes now (large requests being read take its read budget); retry later or send smaller batches");
    }
    hold(admitted);
    frameSizeBuffer.putInt(size);
    frameLeft = size;
    state = State.FRAME;
    return 4;
  }

  private int readFrame(ByteBuffer frame) throws IOException {
    int read = readBytes(frame);
    if (read < 0) {
      return -1;
    }
    touch(read);
    frameLeft -= read;
    if (frameLeft == 0) {
      state = State.LENGTH;
      frameStartNanos = 0;
      if (!startsWithCall(frame.array(), 4, frame.position() - 4)) {
        rules
            .faults()
            .fault("malformed_call", remote, "a frame that does not start with a call header");
        return -1;
      }
      // libthrift runs the call next, on this thread
      FRAME_FROM.set(remote);
      if (caller != null) {
        QueueAccess.callFrom(caller);
      }
    }
    return read;
  }

  /**
   * Who sent the last whole frame read on this thread: the call libthrift processes now, for fault
   * lines about a call whose arguments cannot be read (its processor does not see the connection).
   */
  static InetSocketAddress lastFrameFrom() {
    return FRAME_FROM.get();
  }

  private int refuse(int size, String reason, String message) throws IOException {
    rules.faults().fault(reason, remote, "a frame of " + size + " bytes");
    if (size > MAX_DISCARD_BYTES) {
      return -1;
    }
    state = State.DISCARD;
    frameLeft = size;
    refusedSize = size;
    refusal = message;
    prefix = ByteBuffer.allocate(Math.min(size, PREFIX_BYTES));
    return discard();
  }

  /**
   * Reads a refused frame to its end, keeping only its start; then answers it, or closes the
   * connection.
   */
  private int discard() throws IOException {
    while (answer == null) {
      int read = readBytes(prefix);
      if (read <= 0) {
        return read;
      }
      touch(read);
      frameLeft -= read;
      byte[] decided =
          rules
              .refusalAnswer()
              .answer(Arrays.copyOf(prefix.array(), prefix.position()), refusedSize, refusal);
      if (decided == null
          || (decided == FrameRules.RefusalAnswer.NEED_MORE && !prefix.hasRemaining())) {
        return -1;
      }
      if (decided != FrameRules.RefusalAnswer.NEED_MORE) {
        answer = decided;
      }
    }
    if (scratch == null) {
      scratch = ByteBuffer.allocate(16 * 1024);
    }
    while (frameLeft > 0) {
      scratch.clear().limit(Math.min(frameLeft, scratch.capacity()));
      int read = readBytes(scratch);
      if (read <= 0) {
        return read;
      }
      touch(read);
      frameLeft -= read;
    }
    state = State.LENGTH;
    frameStartNanos = 0;
    prefix = null;
    ByteBuffer out = ByteBuffer.wrap(answer);
    answer = null;
    writeBytes(out);
    idleSinceNanos = System.nanoTime();
    return out.hasRemaining()
        ? -1
        : 0; // a client that does not read a 100-byte answer is not worth waiting for
  }

  private static boolean startsWithCall(byte[] bytes, int offset, int length) {
    try {
      TMessage message =
          new TBinaryProtocol(new TMemoryInputTransport(bytes, offset, length), false, true)
              .readMessageBegin();
      return message.type == TMessageType.CALL || message.type == TMessageType.ONEWAY;
    } catch (TException | RuntimeException e) {
      return false;
    }
  }

  private void touch(int bytes) {
    if (bytes > 0) {
      lastActivityNanos = System.nanoTime();
    }
  }

  private synchronized void hold(long bytes) {
    reserved = bytes;
  }

  private synchronized void releaseReservation() {
    rules.budget().release(peer, reserved);
    reserved = 0;
  }
}
