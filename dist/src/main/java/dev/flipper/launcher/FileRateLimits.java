package dev.flipper.launcher;

import dev.flipper.queue.server.RateLimitFile;
import dev.flipper.workflow.ui.queue.RateLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The rate limits the queue dashboard shows: the config's {@code queue.rateLimitFile}, read at each
 * page with the queue server's own parser, so the UI and a queue server on the same host agree. A
 * file that cannot be read or parsed shows no limits and says why on the page; the UI keeps
 * serving. Thread-safe.
 */
final class FileRateLimits implements RateLimits {
  private final Path file;

  private FileRateLimits(Path file) {
    this.file = file;
  }

  /** The file of {@code queue.rateLimitFile}, or {@link RateLimits#NONE} when it is "". */
  static RateLimits of(String rateLimitFile) {
    return rateLimitFile == null || rateLimitFile.isBlank()
        ? RateLimits.NONE
        : new FileRateLimits(Path.of(rateLimitFile.trim()));
  }

  @Override
  public Map<String, Double> current() {
    try {
      return RateLimitFile.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException | IllegalArgumentException e) {
      return Map.of();
    }
  }

  @Override
  public String describe() {
    String where =
        "Rate limits (dequeues per second, the whole cluster) from "
            + file
            + " as this UI's host reads it (queue.rateLimitFile; each queue server reads its own copy)";
    try {
      RateLimitFile.parse(Files.readString(file, StandardCharsets.UTF_8));
      return where + ".";
    } catch (IOException e) {
      return where + ": cannot read it (" + e.getMessage() + "), so none are shown.";
    } catch (IllegalArgumentException e) {
      return where + ": it is not valid (" + e.getMessage() + "), so none are shown.";
    }
  }
}
