package dev.flipper.workflow.worker.exec;

import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies one output stream of a job (stdout or stderr) into its log, line by line, and hands each
 * line start to the property collector. Each stream has its own pump thread, so a job that fills
 * one pipe while we wait on the other never deadlocks (the problem the original solved with
 * select()).
 *
 * <p>Whole lines are written as soon as they arrive, and the log is flushed after every read. A
 * line longer than {@link #MAX_LINE} bytes is cut into pieces of at most that size, each followed
 * by a newline that we add, so no line in a log exceeds 16 KiB plus its newline; the cut moves back
 * (at most 3 bytes) rather than split a UTF-8 character. Only a piece that starts a line can be a
 * property line, so a property value is cut at 16 KiB too. A last line without a newline is written
 * as it is at end of stream.
 */
final class OutputPump implements Runnable {
  /** The longest line piece, as in the original. */
  static final int MAX_LINE = 16 * 1024;

  private static final Logger log = LoggerFactory.getLogger(OutputPump.class);

  private final InputStream in;
  private final LogSink sink;
  private final PropertyCollector properties;
  private final Runnable onNewProperty;

  // MAX_LINE + 1 so that a line of exactly MAX_LINE bytes and its newline fit, and are not split.
  private final byte[] buf = new byte[MAX_LINE + 1];
  private int count;
  private boolean atLineStart = true;

  /**
   * @param properties where property lines go, or null to only copy (a cleanup command's output)
   * @param onNewProperty called (on the pump's thread) after a line added a new property value
   */
  OutputPump(InputStream in, LogSink sink, PropertyCollector properties, Runnable onNewProperty) {
    this.in = in;
    this.sink = sink;
    this.properties = properties;
    this.onNewProperty = onNewProperty;
  }

  @Override
  public void run() {
    try (in) {
      int n;
      while ((n = in.read(buf, count, buf.length - count)) >= 0) {
        count += n;
        emitLines();
        sink.flush();
      }
      if (count > 0) {
        emit(0, count, false);
        count = 0;
      }
      sink.flush();
    } catch (IOException | RuntimeException e) {
      // The stream was closed under us or the log cannot be written: the execution's result still
      // stands.
      log.warn("stopped copying job output to {}: {}", sink.path(), e.toString());
    }
  }

  private void emitLines() {
    int start = 0;
    for (int i = 0; i < count; i++) {
      if (buf[i] == '\n') {
        emit(start, i + 1 - start, false);
        start = i + 1;
      }
    }
    if (start == 0 && count == buf.length) {
      int cut = MAX_LINE;
      while (cut > MAX_LINE - 3 && (buf[cut] & 0xC0) == 0x80) {
        cut--; // buf[cut] continues a UTF-8 character: keep the character whole in the next piece
      }
      emit(0, cut, true);
      start = cut;
    }
    System.arraycopy(buf, start, buf, 0, count - start);
    count -= start;
  }

  private void emit(int off, int len, boolean addNewline) {
    sink.write(buf, off, len, addNewline);
    if (atLineStart && properties != null && properties.offerLine(buf, off, len)) {
      onNewProperty.run();
    }
    atLineStart = !addNewline;
  }
}
