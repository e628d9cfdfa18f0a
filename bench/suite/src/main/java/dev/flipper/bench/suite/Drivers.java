package dev.flipper.bench.suite;

import java.util.Map;

/** Opens the driver of a system by the name bench/run.sh gives it (BullMQ runs in Node: bench/bullmq). */
final class Drivers {
  private static final Map<String, String> CLASSES = Map.of(
      "flipper", "dev.flipper.bench.suite.FlipperDriver",
      "db-scheduler", "dev.flipper.bench.suite.DbSchedulerDriver",
      "jobrunr", "dev.flipper.bench.suite.JobRunrDriver");

  private Drivers() {}

  /** Each driver class has a constructor taking the harness's {@link Options}. */
  static Driver open(String system, Options options) throws Exception {
    String className = CLASSES.get(system);
    if (className == null) {
      throw new IllegalArgumentException("unknown system '" + system + "'; known: " + CLASSES.keySet());
    }
    return (Driver) Class.forName(className).getDeclaredConstructor(Options.class).newInstance(options);
  }
}
