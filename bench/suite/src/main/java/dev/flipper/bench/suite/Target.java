package dev.flipper.bench.suite;

import java.util.List;

/**
 * One column of the suite's tables: a system on a store.
 *
 * @param name short id, used in file names (flipper-redis, bullmq, ...)
 * @param label column heading
 * @param store Redis, MariaDB or H2: the table the column is in
 * @param system the harness's --system
 * @param serverTemplate for Flipper: the queue server's config template (resources/flipper/), else null
 * @param phases the phases it runs
 */
record Target(String name, String label, String store, String system, String serverTemplate, List<String> phases) {
  static final List<String> ALL_PHASES =
      List.of("enqueue-single", "enqueue-batch", "drain", "drain-client", "mixed", "latency");
  /** The peers have only their worker: no drain-client (it would pre-fill for nothing). */
  static final List<String> PEER_PHASES = List.of("enqueue-single", "enqueue-batch", "drain", "mixed", "latency");
  /** Flipper on MariaDB also runs the mixed phase with a worker of 200 jobs in flight: does a bigger one keep up? */
  static final List<String> FLIPPER_MARIADB_PHASES =
      List.of("enqueue-single", "enqueue-batch", "drain", "drain-client", "mixed", "mixed-wide", "latency");
  /** Shards and H2 are Flipper-only variants: throughput only, to keep the suite under 30 minutes. */
  static final List<String> VARIANT_PHASES = List.of("enqueue-single", "enqueue-batch", "drain", "mixed");

  static List<Target> all() {
    return List.of(
        new Target("flipper-redis", "Flipper", "Redis", "flipper", "redis-1.yaml", ALL_PHASES),
        new Target("bullmq", "BullMQ", "Redis", "bullmq", null, PEER_PHASES),
        new Target("flipper-redis-2", "Flipper, 2 shards", "Redis", "flipper", "redis-2.yaml", VARIANT_PHASES),
        new Target("flipper-mariadb", "Flipper", "MariaDB", "flipper", "mariadb-1.yaml", FLIPPER_MARIADB_PHASES),
        new Target("db-scheduler", "db-scheduler", "MariaDB", "db-scheduler", null, PEER_PHASES),
        new Target("jobrunr", "JobRunr", "MariaDB", "jobrunr", null, PEER_PHASES),
        new Target("flipper-mariadb-2", "Flipper, 2 shards", "MariaDB", "flipper", "mariadb-2.yaml", VARIANT_PHASES),
        new Target("flipper-h2", "Flipper", "H2", "flipper", "h2.yaml", VARIANT_PHASES));
  }

  boolean isFlipper() {
    return system.equals("flipper");
  }
}
