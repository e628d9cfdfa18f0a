package dev.flipper.workflow.worker.exec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One log file kept within {@code workers.maxLogBytes} while the job writes, so that a job writing
 * gigabytes costs neither the disk nor the worker's memory more than the cap. The first half of the
 * cap (the head) goes into the file at once. What comes after it goes to a ring file beside the log
 * ({@code <log>.tail}) that keeps the last half; at {@link #close()} the ring's bytes are appended
 * in order, after a {@link LogCutMarker marker line} when bytes were dropped, and the ring file is
 * deleted. Until then, readers of the log see its head only. Output is never refused: the job's
 * pipe is drained as usual. Not thread-safe ({@link LogSink} serializes).
 */
final class CappedFile {
  private static final int PENDING = 1 << 16;

  private final Path path;
  private final long maxBytes;
  private final long headBytes;
  private final long tailBytes;
  private final FileChannel channel;
  private final OutputStream out;
  private byte lastHeadByte = '\n';
  private long written;
  private FileChannel ring;
  private long ringWritten;
  private byte[] pending;
  private int pendingLength;

  /**
   * @param maxBytes the cap, 0 = none
   */
  CappedFile(Path path, long maxBytes) throws IOException {
    this.path = path;
    this.maxBytes = maxBytes;
    this.headBytes = maxBytes == 0 ? Long.MAX_VALUE : maxBytes / 2;
    this.tailBytes = maxBytes - maxBytes / 2;
    this.channel =
        FileChannel.open(
            path, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
  }

  Path path() {
    return path;
  }

  void write(byte[] buf, int off, int len) throws IOException {
    int head = (int) Math.min(len, Math.max(0, headBytes - written));
    if (head > 0) {
      out.write(buf, off, head);
      lastHeadByte = buf[off + head - 1];
    }
    written += len;
    if (head < len) {
      spill(buf, off + head, len - head);
    }
  }

  void flush() throws IOException {
    out.flush();
    writePending();
  }

  /** Appends the kept tail (after the marker if bytes were cut) and deletes the ring file. */
  void close() throws IOException {
    try (channel;
        FileChannel r = ring) {
      flush();
      if (r == null) {
        return;
      }
      long cut = ringWritten - Math.min(ringWritten, tailBytes);
      if (cut > 0) {
        String newline = lastHeadByte == '\n' ? "" : "\n";
        out.write(
            (newline + LogCutMarker.line(cut, maxBytes) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        long start = ringWritten % tailBytes;
        copy(r, start, tailBytes - start);
        copy(r, 0, start);
      } else {
        copy(r, 0, ringWritten);
      }
    } finally {
      if (ring != null) {
        Files.deleteIfExists(ringPath());
      }
    }
  }

  private void copy(FileChannel from, long position, long count) throws IOException {
    long done = 0;
    while (done < count) {
      done += from.transferTo(position + done, count - done, channel);
    }
  }

  private void spill(byte[] buf, int off, int len) throws IOException {
    if (ring == null) {
      ring =
          FileChannel.open(
              ringPath(),
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      pending = new byte[(int) Math.min(PENDING, tailBytes)];
    }
    while (len > 0) {
      int n = Math.min(len, pending.length - pendingLength);
      System.arraycopy(buf, off, pending, pendingLength, n);
      pendingLength += n;
      off += n;
      len -= n;
      if (pendingLength == pending.length) {
        writePending();
      }
    }
  }

  /** Writes the pending bytes into the ring at their place (position modulo the ring's size). */
  private void writePending() throws IOException {
    int off = 0;
    while (off < pendingLength) {
      long position = ringWritten % tailBytes;
      int n = (int) Math.min(pendingLength - off, tailBytes - position);
      ByteBuffer bytes = ByteBuffer.wrap(pending, off, n);
      while (bytes.hasRemaining()) {
        ring.write(bytes, position + bytes.position() - off);
      }
      ringWritten += n;
      off += n;
    }
    pendingLength = 0;
  }

  private Path ringPath() {
    return path.resolveSibling(path.getFileName() + ".tail");
  }
}
