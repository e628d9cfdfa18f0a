package dev.flipper.workflow.worker.internal;

import dev.flipper.workflow.worker.FreeSpace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the log folder has room for another job: {@code workers.minFreeDiskBytes} free on its
 * file system and, with {@code workers.maxLogFolderBytes}, the folder itself under that size (its
 * size is summed at most every {@link #FOLDER_SCAN_INTERVAL}, a walk of every log file). A job that
 * would start without room is handed back unstarted, for another worker or later. Logs once when
 * room runs out and once when it is back. Thread-safe.
 */
public final class LogSpace {
  static final Duration FOLDER_SCAN_INTERVAL = Duration.ofMinutes(1);

  private static final Logger LOG = LoggerFactory.getLogger(LogSpace.class);

  private final Path logDir;
  private final long minFreeBytes;
  private final long maxFolderBytes;
  private final FreeSpace freeSpace;
  private final Clock clock;
  private long folderBytes;
  private long folderScannedMillis = Long.MIN_VALUE;
  private String lastShortage;

  /**
   * @param minFreeBytes 0 = no check of the free space
   * @param maxFolderBytes 0 = no check of the folder's size
   */
  public LogSpace(
      Path logDir, long minFreeBytes, long maxFolderBytes, FreeSpace freeSpace, Clock clock) {
    this.logDir = logDir;
    this.minFreeBytes = minFreeBytes;
    this.maxFolderBytes = maxFolderBytes;
    this.freeSpace = freeSpace;
    this.clock = clock;
  }

  /** Why no job may start now, or empty if there is room. */
  public synchronized Optional<String> shortage() {
    String shortage = check();
    if (shortage != null && !shortage.equals(lastShortage)) {
      LOG.warn("jobs are not started and are handed back: {}", shortage);
    } else if (shortage == null && lastShortage != null) {
      LOG.info("the log folder {} has room again: jobs start again", logDir);
    }
    lastShortage = shortage;
    return Optional.ofNullable(shortage);
  }

  private String check() {
    if (minFreeBytes > 0) {
      long free;
      try {
        free = freeSpace.usableBytes(logDir);
      } catch (IOException | RuntimeException e) {
        return "cannot tell the free space of the log folder " + logDir + ": " + e;
      }
      if (free < minFreeBytes) {
        return "the log folder "
            + logDir
            + " has "
            + free
            + " bytes free, below workers.minFreeDiskBytes = "
            + minFreeBytes;
      }
    }
    if (maxFolderBytes > 0) {
      long now = clock.millis();
      if (folderScannedMillis == Long.MIN_VALUE
          || now - folderScannedMillis >= FOLDER_SCAN_INTERVAL.toMillis()) {
        try {
          folderBytes = sizeOf(logDir);
        } catch (IOException | UncheckedIOException e) {
          return "cannot sum the size of the log folder " + logDir + ": " + e;
        }
        folderScannedMillis = now;
      }
      if (folderBytes >= maxFolderBytes) {
        return "the log folder "
            + logDir
            + " holds "
            + folderBytes
            + " bytes, at or above workers.maxLogFolderBytes = "
            + maxFolderBytes;
      }
    }
    return null;
  }

  private static long sizeOf(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .mapToLong(
              f -> {
                try {
                  BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                  return a.isRegularFile() ? a.size() : 0;
                } catch (IOException e) {
                  return 0; // deleted meanwhile (log cleanup)
                }
              })
          .sum();
    }
  }
}
