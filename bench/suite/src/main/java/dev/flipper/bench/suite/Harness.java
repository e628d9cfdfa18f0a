package dev.flipper.bench.suite;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the suite's phases against one system and prints one {@code RESULT {json}} line per phase. bench/run.sh
 * starts one harness process per system and round; bench/README.md lists the arguments.
 */
public final class Harness {
  private static final List<String> PHASES =
      List.of("enqueue-single", "enqueue-batch", "drain", "drain-client", "mixed", "mixed-wide", "latency");

  private Harness() {}

  public static void main(String[] args) throws Exception {
    try {
      run(new Options(args));
    } catch (IllegalArgumentException e) {
      System.err.println("harness: " + e.getMessage()); // a wrong argument, as the Node harness says it
      System.exit(2);
    }
    System.exit(0); // some peers leave non-daemon threads behind
  }

  private static void run(Options options) throws Exception {
    String system = options.require("system");
    List<String> phases = Arrays.asList(
        options.get("phases", "enqueue-single,enqueue-batch,drain,drain-client,mixed,latency").split(","));
    for (String phase : phases) {
      if (!PHASES.contains(phase)) { // before connecting: a wrong argument is said as such
        throw new IllegalArgumentException("unknown phase '" + phase + "'; known: " + String.join(",", PHASES));
      }
    }
    CpuMeter cpu = new CpuMeter(pids(options.get("cpu-pids", "")));
    ObjectMapper json = new ObjectMapper();
    try (Driver driver = Drivers.open(system, options)) {
      Phases run = new Phases(system, driver, cpu, options.getInt("producers", 8), options.getInt("inflight", 16),
          options.getDouble("seconds", 5));
      int jobs = options.getInt("jobs", 100_000);
      double maxSeconds = options.getDouble("max-seconds", 60);
      double drainRate = 0;
      for (String phase : phases) {
        List<Result> results = switch (phase) {
          case "enqueue-single" -> List.of(run.enqueueSingle());
          case "enqueue-batch" -> List.of(run.enqueueBatch());
          case "drain" -> List.of(run.drain("drain", true, jobs, maxSeconds));
          case "drain-client" -> listOfPresent(run.drain("drain-client", false, jobs, maxSeconds));
          case "mixed" -> List.of(run.mixed(options.getDouble("mixed-rate", 10_000)));
          case "mixed-wide" -> List.of(run.mixed("mixed-wide", options.getDouble("mixed-rate", 10_000),
              options.getInt("wide-inflight", 200)));
          case "latency" -> latencies(run, options, drainRate, driver);
          default -> throw new IllegalStateException("phase '" + phase + "' has no case");
        };
        for (Result result : results) {
          if (result.phase().equals("drain")) {
            drainRate = result.rate();
          }
          System.out.println("RESULT " + json.writeValueAsString(result));
          System.out.flush();
        }
        driver.clear();
      }
    }
  }

  private static List<Result> latencies(Phases run, Options options, double drainRate, Driver driver)
      throws Exception {
    if (drainRate <= 0) {
      throw new IllegalArgumentException("the latency phase needs the drain phase before it (its rate)");
    }
    List<Result> results = new java.util.ArrayList<>();
    for (String percent : options.get("latency-percents", "25,50,75,90").split(",")) {
      int p = Integer.parseInt(percent.trim());
      results.add(run.latency(p, drainRate * p / 100));
      driver.clear();
    }
    return results;
  }

  private static List<Result> listOfPresent(Result result) {
    return result == null ? List.of() : List.of(result);
  }

  private static Map<String, Long> pids(String spec) {
    Map<String, Long> pids = new LinkedHashMap<>();
    for (String pair : spec.split(",")) {
      if (!pair.isBlank()) {
        String[] nameAndPid = pair.split("=", 2);
        pids.put(nameAndPid[0].trim(), Long.parseLong(nameAndPid[1].trim()));
      }
    }
    return pids;
  }
}
