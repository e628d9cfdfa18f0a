package dev.flipper.queue.server.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small configuration file that is re-read on every {@link #poll()}: when its content changed, it
 * is parsed and handed to the listener. A missing or invalid version is logged once (one line,
 * until the content changes again) and the previous value stays in force. Not thread-safe: poll
 * from one thread.
 */
public final class WatchedFile<T> {
  private static final Logger log = LoggerFactory.getLogger(WatchedFile.class);

  private final Path path;
  private final String what;
  private final Function<String, T> parser;
  private final Consumer<T> listener;
  private String appliedContent;
  private String lastProblem;

  /**
   * @param what names the file in log lines, for example "rate-limit file"
   * @param parser turns the content into a value; throws IllegalArgumentException when it is
   *     invalid
   */
  public WatchedFile(Path path, String what, Function<String, T> parser, Consumer<T> listener) {
    this.path = Objects.requireNonNull(path, "path");
    this.what = what;
    this.parser = parser;
    this.listener = listener;
  }

  public Path path() {
    return path;
  }

  /** Reads, parses and applies the file; at start-up a missing or invalid file is an error. */
  public void loadInitial() {
    String content;
    try {
      content = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + what + " " + path + ": " + e);
    }
    T value;
    try {
      value = parser.apply(content);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(what + " " + path + " is invalid: " + e.getMessage(), e);
    }
    listener.accept(value);
    appliedContent = content;
  }

  /** Applies the file if its content changed since the last applied version. */
  public void poll() {
    String content;
    try {
      content = Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      problem(what + " " + path + " is missing; keeping the previous settings");
      return;
    } catch (IOException e) {
      problem("cannot read " + what + " " + path + " (" + e + "); keeping the previous settings");
      return;
    }
    if (content.equals(appliedContent)) {
      lastProblem = null;
      return;
    }
    T value;
    try {
      value = parser.apply(content);
    } catch (RuntimeException e) {
      problem(what + " " + path + " is invalid, keeping the previous settings: " + e.getMessage());
      return;
    }
    try {
      listener.accept(value);
    } catch (RuntimeException e) {
      problem(
          what
              + " "
              + path
              + " could not be applied, keeping the previous settings: "
              + e.getMessage());
      return;
    }
    appliedContent = content;
    lastProblem = null;
    log.info("reloaded {} {}", what, path);
  }

  private void problem(String message) {
    if (!message.equals(lastProblem)) {
      log.warn(message);
      lastProblem = message;
    }
  }
}
