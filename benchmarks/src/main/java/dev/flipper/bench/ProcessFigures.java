package dev.flipper.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** Memory figures of this process, for benchmarks that print them. */
final class ProcessFigures {
  private ProcessFigures() {}

  /** Heap in use after a few full GCs. */
  static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** This process's resident set size, from /proc (Linux); 0 elsewhere. */
  static long residentSetBytes() {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return 0;
    }
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + status, e);
    }
  }
}
