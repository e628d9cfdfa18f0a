package dev.flipper.bench.suite;

import java.util.Base64;
import java.util.function.Consumer;

/**
 * The job JobRunr runs: a static method with the body as its one argument, in Base64 since JobRunr stores job
 * arguments as JSON text (a lossless 268 characters for the 200 bytes). JobRunr finds the method by name in
 * the stored job, so the handler of the running worker is reached through a static field: one driver per JVM.
 */
public final class JobRunrJobs {
  private static final Consumer<byte[]> NONE = body -> {};

  private static volatile Consumer<byte[]> handler = NONE;

  private JobRunrJobs() {}

  /** Runs one job: gives its body to the handler of the running worker. */
  public static void run(String body) {
    handler.accept(Base64.getDecoder().decode(body));
  }

  static String encode(byte[] body) {
    return Base64.getEncoder().encodeToString(body);
  }

  static void handleWith(Consumer<byte[]> consumer) {
    handler = consumer == null ? NONE : consumer;
  }
}
