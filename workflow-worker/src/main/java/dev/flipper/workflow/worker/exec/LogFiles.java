package dev.flipper.workflow.worker.exec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * The job logs under {@code workers.logDir}: where an attempt's stdout and stderr go, and a reader
 * that serves them (the worker's HTTP log endpoint) without ever leaving that directory. Immutable
 * and thread-safe.
 *
 * <p>Layout: {@code <logDir>/<workflow>/<instance>/<job>.<attempt>.stdout} and {@code ….stderr}.
 * Each name part is made safe for the file system by {@link #safeName}. The attempt number (not the
 * start second, as in the original) keeps two attempts that start in the same second apart.
 */
public final class LogFiles {
  /** Files of one attempt. */
  public record AttemptLogs(Path stdout, Path stderr) {}

  /**
   * A piece of a log file.
   *
   * @param data the bytes read
   * @param offset where {@code data} starts in the file
   * @param nextOffset the offset to ask for next to continue a tail ({@code offset + data.length})
   * @param size the file's size when it was read
   */
  public record Chunk(byte[] data, long offset, long nextOffset, long size) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Chunk c
          && Arrays.equals(data, c.data)
          && offset == c.offset
          && nextOffset == c.nextOffset
          && size == c.size;
    }

    @Override
    public int hashCode() {
      return Objects.hash(Arrays.hashCode(data), offset, nextOffset, size);
    }

    @Override
    public String toString() {
      return "Chunk["
          + data.length
          + " bytes, offset="
          + offset
          + ", nextOffset="
          + nextOffset
          + ", size="
          + size
          + "]";
    }
  }

  /**
   * The most one {@link #read} returns, so a client cannot make the worker buffer a whole big file.
   */
  public static final int MAX_CHUNK = 1 << 20;

  private final Path root;

  /**
   * @param root {@code workers.logDir}; created if missing
   * @throws IOException if it cannot be created
   */
  public LogFiles(Path root) throws IOException {
    Files.createDirectories(root);
    this.root = root.toRealPath();
  }

  public Path root() {
    return root;
  }

  /** The paths of one attempt's logs, with their directory created. */
  public AttemptLogs create(String workflow, String instance, String job, int attempt)
      throws IOException {
    Path dir = root.resolve(safeName(workflow)).resolve(safeName(instance));
    Files.createDirectories(dir);
    String base = safeName(job) + "." + attempt;
    return new AttemptLogs(dir.resolve(base + ".stdout"), dir.resolve(base + ".stderr"));
  }

  /**
   * A log path relative to the root, with {@code /} separators: what an execution record and a log
   * URL carry.
   */
  public String relative(Path log) {
    Path rel = root.relativize(log.toAbsolutePath().normalize());
    if (rel.startsWith("..") || rel.isAbsolute()) {
      throw new IllegalArgumentException(log + " is not under the log directory " + root);
    }
    return rel.toString().replace(rel.getFileSystem().getSeparator(), "/");
  }

  /**
   * Reads up to {@code maxBytes} from {@code offset}; a negative offset counts from the end ({@code
   * -4096} = the last 4 KiB), which is how a tail starts. An offset past the end returns no bytes
   * and {@code nextOffset = size}.
   *
   * @param relativePath a path under the root, as given by {@link #relative}
   * @throws IllegalArgumentException if the path leaves the root, is absolute, or is not a regular
   *     file there
   * @throws NoSuchFileException if there is no such log
   */
  public Chunk read(String relativePath, long offset, int maxBytes) throws IOException {
    if (maxBytes < 0 || maxBytes > MAX_CHUNK) {
      throw new IllegalArgumentException(
          "maxBytes must be between 0 and " + MAX_CHUNK + ", was " + maxBytes);
    }
    Path file = resolve(relativePath);
    try (SeekableByteChannel ch =
        Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = ch.size();
      long from = offset < 0 ? Math.max(0, size + offset) : Math.min(offset, size);
      int want = (int) Math.min(maxBytes, size - from);
      ByteBuffer buf = ByteBuffer.allocate(want);
      ch.position(from);
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // a file that shrank under us (it should not: logs only grow) just gives a shorter chunk
      }
      byte[] data = Arrays.copyOf(buf.array(), buf.position());
      return new Chunk(data, from, from + data.length, size);
    }
  }

  /** Opens a whole log for streaming (the download endpoint); same path rules as {@link #read}. */
  public InputStream open(String relativePath) throws IOException {
    Path file = resolve(relativePath);
    return Channels.newInputStream(
        Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
  }

  /**
   * Resolves a client-given path strictly inside the root: no absolute path, no {@code ..} or
   * {@code .} part, no empty part, and the real path (symbolic links followed) must still be inside
   * the root and be a regular file.
   */
  public Path resolve(String relativePath) throws IOException {
    Objects.requireNonNull(relativePath, "relativePath");
    if (relativePath.isEmpty() || relativePath.startsWith("/") || relativePath.contains("\\")) {
      throw outside(relativePath);
    }
    for (String part : relativePath.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw outside(relativePath);
      }
    }
    Path candidate;
    try {
      candidate = root.resolve(relativePath).normalize();
    } catch (InvalidPathException e) {
      throw outside(relativePath);
    }
    if (!candidate.startsWith(root)) {
      throw outside(relativePath);
    }
    Path real = candidate.toRealPath();
    if (!real.startsWith(root)) {
      throw outside(relativePath);
    }
    if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException("log path " + relativePath + " is not a file");
    }
    return real;
  }

  private IllegalArgumentException outside(String relativePath) {
    return new IllegalArgumentException(
        "log path '" + relativePath + "' is not a relative path inside the log directory " + root);
  }

  /**
   * Makes a workflow, instance or job name safe as one file name: ASCII letters, digits, {@code _}
   * and {@code -} stay; every other byte of the UTF-8 form, and a leading {@code .}, becomes {@code
   * %XX}. Distinct names stay distinct, and no result is {@code .}, {@code ..} or contains a
   * separator.
   */
  public static String safeName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(
          "a workflow, instance or job name for a log path must not be empty");
    }
    StringBuilder out = new StringBuilder(name.length());
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      boolean plain =
          (b >= 'a' && b <= 'z')
              || (b >= 'A' && b <= 'Z')
              || (b >= '0' && b <= '9')
              || b == '_'
              || b == '-'
              || (b == '.' && i > 0);
      if (plain) {
        out.append((char) b);
      } else {
        out.append('%')
            .append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
    }
    return out.toString();
  }
}
