package dev.flipper.workflow.worker.exec;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Deletes job logs under {@code workers.logDir} for the cleanup of archived instances: one log file
 * ({@code <workflow>/<instance>/<job>.<n>.stdout}, as in execution records) or one instance's
 * directory ({@code <workflow>/<instance>}). Nothing outside the log directory, no other level, and
 * no symbolic link is followed. Directories left empty are removed. Deleting what is already gone
 * deletes nothing, so the cleanup may repeat. Thread-safe.
 */
public final class LogCleaner {
  private final Path root;

  public LogCleaner(LogFiles logs) {
    this.root = logs.root();
  }

  /**
   * Deletes a log file or an instance's log directory; returns how many files were deleted (0 if it
   * was gone).
   *
   * @param relativePath {@code <workflow>/<instance>} or {@code <workflow>/<instance>/<file>}
   * @throws IllegalArgumentException if the path is not one of those, inside the log directory
   */
  public int delete(String relativePath) throws IOException {
    String[] parts = relativePath.split("/", -1);
    if (relativePath.startsWith("/")
        || relativePath.contains("\\")
        || parts.length < 2
        || parts.length > 3
        || Stream.of(parts).anyMatch(p -> p.isEmpty() || p.equals(".") || p.equals(".."))) {
      throw new IllegalArgumentException(
          "log path '"
              + relativePath
              + "' is not <workflow>/<instance> or "
              + "<workflow>/<instance>/<log file> inside the log directory");
    }
    Path target = root.resolve(relativePath).normalize();
    if (!target.startsWith(root) || !Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      return 0;
    }
    // No link anywhere on the way: the real parent must be the lexical one.
    if (!target.getParent().toRealPath().equals(target.getParent())) {
      throw new IllegalArgumentException(
          "log path '" + relativePath + "' passes through a symbolic link");
    }
    int deleted;
    if (parts.length == 2) {
      if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new IllegalArgumentException(
            "log path '" + relativePath + "' is not an instance's log directory");
      }
      deleted = deleteTree(target);
    } else {
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new IllegalArgumentException(
            "log path '" + relativePath + "' is a directory, not a log file");
      }
      deleted = Files.deleteIfExists(target) ? 1 : 0;
      removeIfEmpty(target.getParent());
    }
    removeIfEmpty(root.resolve(parts[0]));
    return deleted;
  }

  /**
   * Deletes the files (links themselves, not what they point to) and directories below and at
   * {@code dir}.
   */
  private static int deleteTree(Path dir) throws IOException {
    int files = 0;
    List<Path> deepestFirst;
    try (Stream<Path> walk = Files.walk(dir)) {
      deepestFirst = walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList();
    }
    for (Path path : deepestFirst) {
      boolean directory = Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
      if (Files.deleteIfExists(path) && !directory) {
        files++;
      }
    }
    return files;
  }

  private void removeIfEmpty(Path dir) throws IOException {
    if (dir.equals(root)) {
      return;
    }
    try {
      Files.deleteIfExists(dir);
    } catch (DirectoryNotEmptyException | NoSuchFileException e) {
      // Still holds other logs (or another cleanup got there first): keep it.
    }
  }
}
