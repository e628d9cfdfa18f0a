package dev.flipper.workflow.worker.exec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One log file being appended to. Thread-safe. After {@link #close()} writes are dropped silently:
 * an output reader that was given up on (a background process still holds the job's pipe) may go on
 * reading, but no longer writes.
 */
final class LogSink implements AutoCloseable {
  private static final byte[] NEWLINE = {'\n'};

  private final Path path;
  private OutputStream out;

  LogSink(Path path) throws IOException {
    this.path = path;
    this.out =
        new BufferedOutputStream(
            Files.newOutputStream(
                path,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.WRITE),
            1 << 16);
  }

  Path path() {
    return path;
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
