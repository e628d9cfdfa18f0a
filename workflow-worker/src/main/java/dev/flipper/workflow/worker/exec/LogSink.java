package dev.flipper.workflow.worker.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * One log file being appended to, within {@code workers.maxLogBytes} ({@link CappedFile}).
 * Thread-safe. After {@link #close()} or {@link #detach()} writes are dropped silently: an output
 * reader that was given up on (a background process still holds the job's pipe) may go on reading,
 * but no longer writes.
 */
final class LogSink implements AutoCloseable {
  private static final byte[] NEWLINE = {'\n'};

  private final Path path;
  private CappedFile out;

  /**
   * @param maxBytes the cap of the file, 0 = none
   */
  LogSink(Path path, long maxBytes) throws IOException {
    this(new CappedFile(path, maxBytes));
  }

  private LogSink(CappedFile out) {
    this.path = out.path();
    this.out = out;
  }

  Path path() {
    return path;
  }

  /**
   * A new sink on the same file, which goes on within the same cap; this one drops its writes from
   * now on.
   */
  synchronized LogSink detach() {
    if (out == null) {
      throw new IllegalStateException("the job log " + path + " is closed");
    }
    LogSink next = new LogSink(out);
    out = null;
    return next;
  }

  synchronized void write(byte[] buf, int off, int len) {
    if (out == null) {
      return;
    }
    try {
      out.write(buf, off, len);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the job log " + path, e);
    }
  }

  /** Writes a piece of output and, if asked, a newline after it, with no other write in between. */
  synchronized void write(byte[] buf, int off, int len, boolean newline) {
    write(buf, off, len);
    if (newline) {
      write(NEWLINE, 0, 1);
    }
  }

  /** Writes one line of our own (a note or a marker), ending it with a newline. */
  synchronized void note(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    write(bytes, 0, bytes.length);
    flush();
  }

  synchronized void flush() {
    if (out == null) {
      return;
    }
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the job log " + path, e);
    }
  }

  @Override
  public synchronized void close() {
    if (out == null) {
      return;
    }
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the job log " + path, e);
    } finally {
      out = null;
    }
  }
}
