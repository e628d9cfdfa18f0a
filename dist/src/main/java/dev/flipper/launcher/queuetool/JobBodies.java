package dev.flipper.launcher.queuetool;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the bodies of {@code --mode enqueue} come from: one {@code --body} argument, one whole
 * {@code --body_file}, or one job per non-empty line of standard input ({@code --stdin}).
 * Stateless.
 */
final class JobBodies {
  private JobBodies() {}

  /**
   * True when any body source is given: enqueue then adds these jobs instead of generating load.
   */
  static boolean given(String body, Path file, boolean stdin) {
    return body != null || file != null || stdin;
  }

  /**
   * The bodies; throws IllegalArgumentException with the fix when the sources clash or a file is
   * missing.
   */
  static List<byte[]> read(String body, Path file, boolean stdin, InputStream in)
      throws IOException {
    int sources = (body != null ? 1 : 0) + (file != null ? 1 : 0) + (stdin ? 1 : 0);
    if (sources != 1) {
      throw new IllegalArgumentException(
          "give exactly one of --body, --body_file and --stdin (got " + sources + ")");
    }
    if (body != null) {
      return List.of(body.getBytes(StandardCharsets.UTF_8));
    }
    if (file != null) {
      try {
        return List.of(Files.readAllBytes(file));
      } catch (NoSuchFileException e) {
        throw new IllegalArgumentException("--body_file " + file + " does not exist");
      }
    }
    List<byte[]> bodies = new ArrayList<>();
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      if (!line.isBlank()) {
        bodies.add(line.getBytes(StandardCharsets.UTF_8));
      }
    }
    if (bodies.isEmpty()) {
      throw new IllegalArgumentException(
          "--stdin: standard input had no non-empty line, so there is no job to enqueue");
    }
    return bodies;
  }
}
