package dev.flipper.workflow.worker.exec;

/**
 * How a process's end becomes an execution's exit code.
 *
 * <p>Java reports a process killed by signal {@code n} as exit value {@code 128 + n}, and {@code
 * /bin/sh} reports a command killed by signal {@code n} the same way ({@code $?} = {@code 128 +
 * n}), so the two cannot be told apart from Java. Like the original (Python's {@code returncode})
 * we record death by a signal as {@code -n}: exit values 129 to 192 (signals 1 to 64) become -1 to
 * -64. A command that calls {@code exit 137} itself is therefore also reported as -9; shells
 * reserve the values above 128 for this meaning, so a job should not use them. Everything else (0
 * to 128 and 193 to 255) is kept as it is.
 */
final class ExitCodes {
  /**
   * Exit code of an execution that could not start, or was aborted before its process started (as
   * the original).
   */
  static final int NOT_STARTED = 1;

  private static final int SIGNAL_BASE = 128;
  private static final int MAX_SIGNAL = 64;

  private ExitCodes() {}

  static int fromProcess(int exitValue) {
    if (exitValue > SIGNAL_BASE && exitValue <= SIGNAL_BASE + MAX_SIGNAL) {
      return -(exitValue - SIGNAL_BASE);
    }
    return exitValue;
  }
}
