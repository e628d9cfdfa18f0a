package dev.flipper.bench.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU seconds (user + system) of named processes from /proc/PID/stat, this process as "client": a snapshot before a
 * phase and one after give what each spent on it. A process that is gone reads as 0.
 */
final class CpuMeter {
  private static final double TICKS_PER_SECOND = 100.0; // USER_HZ, 100 on every Linux the suite runs on

  private final Map<String, Long> pids;

  CpuMeter(Map<String, Long> otherPids) {
    pids = new LinkedHashMap<>();
    pids.put("client", ProcessHandle.current().pid());
    pids.putAll(otherPids);
  }

  Map<String, Double> snapshot() {
    Map<String, Double> seconds = new LinkedHashMap<>();
    pids.forEach((name, pid) -> seconds.put(name, cpuSeconds(pid)));
    return seconds;
  }

  static Map<String, Double> since(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> spent = new LinkedHashMap<>();
    before.forEach((name, start) -> spent.put(name, after.getOrDefault(name, start) - start));
    return spent;
  }

  private static double cpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // fields after the command name, which is in parentheses and may hold spaces: utime is field 14, stime 15
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
