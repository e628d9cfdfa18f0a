package dev.flipper.workflow.worker.exec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

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
   * @throws IllegalArgumentException if the path is absolute or has an empty, {@code .} or {@code
   *     ..} part
   * @throws NoSuchFileException if there is no such log (see {@link #openChannel})
   */
  public Chunk read(String relativePath, long offset, int maxBytes) throws IOException {
    if (maxBytes < 0 || maxBytes > MAX_CHUNK) {
      throw new IllegalArgumentException(
          "maxBytes must be between 0 and " + MAX_CHUNK + ", was " + maxBytes);
    }
    try (SeekableByteChannel ch = openChannel(relativePath)) {
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

  /** Opens a whole log for streaming; same rules as {@link #openChannel}. */
  public InputStream open(String relativePath) throws IOException {
    return Channels.newInputStream(openChannel(relativePath));
  }

  /**
   * Opens a log for reading, strictly inside the root: the path has no absolute start and no empty,
   * {@code .} or {@code ..} part; each directory on the way is opened from the one before without
   * following a link, the file itself too (O_NOFOLLOW), and the file opened must be a regular file
   * with one link, the same file before and after opening. So neither a symbolic link nor a hard
   * link a job planted in its log directory, nor a directory swapped for a link while the log is
   * opened, serves a file from elsewhere.
   *
   * @throws IllegalArgumentException if the path is not a relative path as described
   * @throws NoSuchFileException "no such log" (naming only the relative path) when there is no such
   *     file, or it is a link, a directory or not the same file throughout
   */
  public SeekableByteChannel openChannel(String relativePath) throws IOException {
    List<Path> parts = parts(relativePath);
    try (DirectoryStream<Path> top = Files.newDirectoryStream(root)) {
      if (top instanceof SecureDirectoryStream<Path> secure) {
        return openBelow(secure, parts, relativePath);
      }
    } catch (IOException e) {
      throw noSuchLog(relativePath);
    }
    return openByPath(relativePath);
  }

  /** Opens the log relative to directory handles: no directory on the way can be swapped. */
  private SeekableByteChannel openBelow(
      SecureDirectoryStream<Path> top, List<Path> parts, String relativePath) throws IOException {
    List<SecureDirectoryStream<Path>> opened = new ArrayList<>();
    try {
      SecureDirectoryStream<Path> dir = top;
      for (Path part : parts.subList(0, parts.size() - 1)) {
        dir = dir.newDirectoryStream(part, LinkOption.NOFOLLOW_LINKS);
        opened.add(dir);
      }
      Path name = parts.get(parts.size() - 1);
      BasicFileAttributeView view =
          dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
      BasicFileAttributes before = view.readAttributes();
      SeekableByteChannel channel =
          dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
      return checked(channel, before, view.readAttributes(), relativePath);
    } finally {
      for (SecureDirectoryStream<Path> dir : opened) {
        dir.close();
      }
    }
  }

  /** Where the file system has no directory handles: no link on the way, by real path. */
  private SeekableByteChannel openByPath(String relativePath) throws IOException {
    Path file = root.resolve(relativePath);
    try {
      if (!file.getParent().toRealPath().equals(file.getParent())) {
        throw noSuchLog(relativePath);
      }
      BasicFileAttributes before =
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      SeekableByteChannel channel =
          Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
      return checked(
          channel,
          before,
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS),
          relativePath);
    } catch (IOException e) {
      throw noSuchLog(relativePath);
    }
  }

  /**
   * The channel if the file opened was one regular file with one link throughout, else closes it.
   */
  private SeekableByteChannel checked(
      SeekableByteChannel channel,
      BasicFileAttributes before,
      BasicFileAttributes after,
      String relativePath)
      throws IOException {
    try {
      Object key = before.fileKey();
      boolean oneFile =
          before.isRegularFile()
              && after.isRegularFile()
              && key != null
              && key.equals(after.fileKey())
              && linkCount(relativePath, key) == 1;
      if (oneFile) {
        return channel;
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // unreadable: refused below
    }
    channel.close();
    throw noSuchLog(relativePath);
  }

  /** The file's link count, if the path still names the file {@code key}; else -1. */
  private long linkCount(String relativePath, Object key) throws IOException {
    Map<String, Object> unix =
        Files.readAttributes(
            root.resolve(relativePath), "unix:nlink,fileKey", LinkOption.NOFOLLOW_LINKS);
    return key.equals(unix.get("fileKey")) ? ((Number) unix.get("nlink")).longValue() : -1;
  }

  /** The parts of a client-given path, or IllegalArgumentException if it could leave the root. */
  private static List<Path> parts(String relativePath) {
    Objects.requireNonNull(relativePath, "relativePath");
    if (relativePath.isEmpty() || relativePath.startsWith("/") || relativePath.contains("\\")) {
      throw outside(relativePath);
    }
    List<Path> parts = new ArrayList<>();
    for (String part : relativePath.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw outside(relativePath);
      }
      try {
        parts.add(Path.of(part));
      } catch (InvalidPathException e) {
        throw outside(relativePath);
      }
    }
    return parts;
  }

  private static IllegalArgumentException outside(String relativePath) {
    return new IllegalArgumentException(
        "log path '"
            + relativePath
            + "' is not a relative path inside the log directory (no empty, . or .. part)");
  }

  /** Names only the path the client gave, never where the log directory is. */
  private static NoSuchFileException noSuchLog(String relativePath) {
    return new NoSuchFileException("no such log '" + relativePath + "'");
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
