package dev.flipper.bench.suite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The suite (bench/run.sh): starts a Flipper queue server per Flipper target, then runs every target's harness once
 * per round, the order of the targets rotating between rounds, and writes the report. Round 0 is the warm-up.
 */
public final class Suite {
  private final Options options;
  private final Path benchDir;
  private final Path runDir;
  private final FlipperServer.StoreAddresses stores;
  private final boolean quick;

  private Suite(Options options) throws Exception {
    this.options = options;
    benchDir = Path.of(options.require("bench-dir")).toAbsolutePath();
    quick = Boolean.parseBoolean(options.get("quick", "false"));
    runDir = Files.createDirectories(benchDir.resolve("results")
        .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
    String[] redis = options.get("redis", "127.0.0.1:6379").split(":");
    stores = new FlipperServer.StoreAddresses(options.get("jdbc-url", "jdbc:mysql://127.0.0.1:3306/"),
        options.get("user", "root"), options.get("password", ""), redis[0], Integer.parseInt(redis[1]));
  }

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    try {
      System.exit(new Suite(new Options(args)).run());
    } catch (IllegalArgumentException e) {
      log(e.getMessage()); // a wrong argument: say which, no stack trace
      System.exit(2);
    }
  }

  private int run() throws Exception {
    List<Target> targets = selected();
    int rounds = quick ? 1 : options.getInt("rounds", 3);
    int warmups = quick ? 0 : 1;
    Map<String, FlipperServer> servers = new LinkedHashMap<>();
    List<Run> runs = new ArrayList<>();
    LoadAverage load = new LoadAverage();
    long started = System.nanoTime();
    try {
      for (Target target : targets) {
        if (target.isFlipper()) {
          log("starting the Flipper queue server for " + target.name());
          servers.put(target.name(), FlipperServer.start(flipperHome(), target, stores, runDir));
        }
      }
      for (int round = 1 - warmups; round <= rounds; round++) {
        List<Target> order = new ArrayList<>(targets);
        Collections.rotate(order, round); // alternate: each round starts with another system
        for (Target target : order) {
          List<Result> results = runHarness(target, round, servers.get(target.name()), load, round > 0);
          for (Result result : results) {
            runs.add(new Run(round, target, result));
          }
        }
      }
    } finally {
      for (FlipperServer server : servers.values()) {
        server.close();
      }
    }
    double minutes = (System.nanoTime() - started) / 60e9;
    String command = quick ? "bench/run.sh --quick" : "bench/run.sh";
    Report report = new Report(targets, runs, load, minutes, versions(), command);
    String markdown = report.markdown(Path.of("bench"));
    Files.writeString(runDir.resolve("report.md"), markdown);
    new Plots(targets, runs).write(runDir);
    System.out.println(markdown);
    if (!quick && Boolean.parseBoolean(options.get("write-docs", "true"))) {
      Path docs = benchDir.getParent().resolve("docs");
      report.writeInto(docs.resolve("benchmarks.md"), runDir, docs.resolve("bench"));
    }
    log(String.format("done in %.1f minutes; raw results and logs in %s", minutes, runDir));
    return 0;
  }

  private List<Result> runHarness(Target target, int round, FlipperServer server, LoadAverage load, boolean measured)
      throws Exception {
    List<String> command = new ArrayList<>(harnessCommand(target));
    boolean brief = quick || !measured; // the warm-up round only warms the servers and the stores' caches
    command.addAll(List.of("--system", target.system(), "--phases", String.join(",", target.phases()),
        "--seconds", brief ? "2" : options.get("seconds", "5"),
        "--jobs", brief ? "10000" : options.get("jobs", "100000"),
        "--max-seconds", brief ? "15" : options.get("max-seconds", "40"),
        "--latency-percents", brief ? "50" : "25,50,75,90",
        "--cpu-pids", cpuPids(target, server)));
    if (server != null) {
      command.addAll(List.of("--server", server.address()));
    }
    log(String.format("round %d%s: %s", round, measured ? "" : " (warm-up)", target.name()));
    if (measured) {
      load.sample();
    }
    Path logFile = runDir.resolve(target.name() + "-round" + round + ".log");
    List<Result> results = HarnessProcess.run(command, logFile, 900);
    if (measured) {
      load.sample();
    }
    for (Result result : results) {
      log(String.format("  %-16s %10.0f jobs/s%s", result.phase(), result.rate(),
          result.latencyMs() == null ? "" : "  p99 " + result.latencyMs().get("p99") + " ms"));
    }
    return results;
  }

  private List<String> harnessCommand(Target target) {
    if (target.system().equals("bullmq")) {
      return List.of(options.get("node", "node"), benchDir.resolve("bullmq/harness.mjs").toString(),
          "--redis", stores.redisHost() + ":" + stores.redisPort());
    }
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx2g",
        "-cp", System.getProperty("java.class.path"), Harness.class.getName(),
        "--jdbc-url", stores.jdbcUrl(), "--user", stores.user(), "--password", stores.password());
  }

  private String cpuPids(Target target, FlipperServer server) {
    List<String> pids = new ArrayList<>();
    if (server != null) {
      pids.add("server=" + server.pid());
    }
    String storeProcess = switch (target.store()) {
      case "Redis" -> "redis-server";
      case "MariaDB" -> "mariadbd";
      default -> null; // H2 runs inside the queue server
    };
    if (storeProcess != null) {
      storePid(storeProcess).ifPresent(pid -> pids.add("store=" + pid));
    }
    return String.join(",", pids);
  }

  /** The store server's process by its name in /proc/PID/comm (redis-server's executable is a symlink). */
  private Optional<Long> storePid(String name) {
    return ProcessHandle.allProcesses()
        .map(ProcessHandle::pid)
        .filter(pid -> name.equals(comm(pid)))
        .sorted()
        .findFirst();
  }

  private static String comm(long pid) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "comm")).trim();
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private List<Target> selected() {
    String only = options.get("only", "");
    if (only.isBlank()) {
      return Target.all();
    }
    List<String> names = List.of(only.split(","));
    List<String> known = Target.all().stream().map(Target::name).toList();
    for (String name : names) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("--only: no system '" + name + "'; known: " + String.join(",", known));
      }
    }
    return Target.all().stream().filter(t -> names.contains(t.name())).toList();
  }

  private Path flipperHome() {
    return Path.of(options.require("flipper-home"));
  }

  private Map<String, String> versions() {
    Map<String, String> versions = new LinkedHashMap<>();
    versions.put("Java", System.getProperty("java.version"));
    versions.put("BullMQ", options.get("bullmq-version", "?"));
    versions.put("Node.js", options.get("node-version", "?"));
    for (String jar : System.getProperty("java.class.path").split(":")) {
      String file = Path.of(jar).getFileName().toString();
      if (file.startsWith("db-scheduler-") || file.startsWith("jobrunr-")) {
        versions.put(file.replaceAll("-[0-9][^-]*\\.jar$", ""), file.replaceAll("^.*-([0-9][^-]*)\\.jar$", "$1"));
      }
    }
    versions.put("MariaDB", options.get("mariadb-version", "?"));
    versions.put("Redis", options.get("redis-version", "?"));
    return versions;
  }

  static void log(String line) {
    System.err.println("bench: " + line);
  }
}
