package dev.flipper.bench.suite;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs one harness process to the end and reads its {@code RESULT} lines; everything it prints goes to a log. */
final class HarnessProcess {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RESULT = "RESULT ";

  private HarnessProcess() {}

  static List<Result> run(List<String> command, Path log, long timeoutSeconds) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<Result> results = new ArrayList<>();
    Thread reader = new Thread(() -> read(process, String.join(" ", command), log, results), "harness-output");
    reader.start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      reader.join();
      throw new IllegalStateException("harness still running after " + timeoutSeconds + " s, killed; see " + log);
    }
    reader.join();
    if (process.exitValue() != 0) {
      throw new IllegalStateException("harness exited with " + process.exitValue() + "; see " + log);
    }
    return results;
  }

  private static void read(Process process, String command, Path log, List<Result> results) {
    try (BufferedReader lines =
            new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
      out.println(command);
      for (String line; (line = lines.readLine()) != null; ) {
        out.println(line);
        if (line.startsWith(RESULT)) {
          results.add(JSON.readValue(line.substring(RESULT.length()), Result.class)); // read after join()
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
