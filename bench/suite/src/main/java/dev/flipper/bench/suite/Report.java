package dev.flipper.bench.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/** The suite's tables in Markdown, and their place in docs/benchmarks.md (between the peers markers). */
final class Report {
  static final String BEGIN = "<!-- peers:begin (written by bench/run.sh) -->";
  static final String END = "<!-- peers:end -->";
  private static final List<String> STORES = List.of("Redis", "MariaDB", "H2");
  private static final List<String[]> THROUGHPUT_ROWS = List.of(
      new String[] {"enqueue-single", "enqueue, 1 job per call"},
      new String[] {"enqueue-batch", "enqueue, 100 jobs per call"},
      new String[] {"drain", "drain 100,000, worker"},
      new String[] {"drain-client", "drain 100,000, plain client"},
      new String[] {"mixed", "10,000/s offered, worker running: ran"},
      new String[] {"mixed-wide", "10,000/s offered, worker with 200 in flight: ran"});

  private final List<Target> targets;
  private final Figures figures;
  private final LoadAverage load;
  private final double minutes;
  private final Map<String, String> versions;
  private final String command;

  Report(List<Target> targets, List<Run> runs, LoadAverage load, double minutes, Map<String, String> versions,
      String command) {
    this.targets = targets;
    this.figures = new Figures(runs);
    this.load = load;
    this.minutes = minutes;
    this.versions = versions;
    this.command = command;
  }

  String markdown(Path plotsLink) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT,
        "Measured %s with `%s` (%.0f minutes) on this %d-core machine, load average %s during the measured rounds. "
            + "Versions: %s. Each cell: the median of the measured rounds (min–max), after one warm-up round; "
            + "200-byte bodies, no-op handlers, 16 jobs in flight in the worker, 8 producers.%n%n",
        LocalDate.now(), command, minutes, Runtime.getRuntime().availableProcessors(), load.range(),
        String.join(", ", versions.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())));
    out.append("### Throughput, jobs/s\n\n");
    for (String store : stores()) {
      out.append("**").append(store).append("**\n\n").append(throughputTable(store)).append('\n');
      out.append(String.format("![throughput on %s](%s/throughput-%s.png)%n%n", store, plotsLink, slug(store)));
    }
    out.append("### Enqueue-to-start latency, ms (p50 / p99 / p999)\n\n");
    out.append("Producers offer jobs at a share of each system's own drain rate (the same run's), "
        + "each call sending the jobs "
        + "due by then (one, or up to 100 when behind); latency counts from the time a job was due.\n\n");
    for (String store : stores()) {
      String table = latencyTable(store);
      if (!table.isEmpty()) {
        out.append("**").append(store).append("**\n\n").append(table).append('\n');
        out.append(String.format("![p99 latency on %s](%s/latency-%s.png)%n%n", store, plotsLink, slug(store)));
      }
    }
    out.append("### CPU seconds per 10,000 jobs: client + server + store = total\n\n").append(cpuTable()).append('\n');
    out.append("### Goals\n\n").append(goalsTable()).append('\n');
    return out.toString();
  }

  /** Replaces the peers section of docs/benchmarks.md (or appends it) and copies the plots next to it. */
  void writeInto(Path docs, Path runDir, Path plotsDir) throws IOException {
    Files.createDirectories(plotsDir);
    try (Stream<Path> plots = Files.list(runDir)) {
      for (Path plot : plots.filter(p -> p.toString().endsWith(".png")).toList()) {
        Files.copy(plot, plotsDir.resolve(plot.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    String text = Files.readString(docs);
    String section = BEGIN + "\n" + markdown(Path.of("bench")) + END;
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    text = begin >= 0 && end > begin
        ? text.substring(0, begin) + section + text.substring(end + END.length())
        : text + "\n## Peers\n\n" + section + "\n";
    Files.writeString(docs, text);
  }

  private String throughputTable(String store) {
    List<Target> columns = inStore(store);
    Optional<Target> flipper = columns.stream().filter(t -> t.name().equals(mainFlipper(store))).findFirst();
    List<Target> peers = columns.stream().filter(t -> !t.isFlipper()).toList();
    List<String> header = new ArrayList<>(List.of("phase"));
    columns.forEach(t -> header.add(t.label()));
    if (flipper.isPresent()) {
      peers.forEach(p -> header.add("Flipper ÷ " + p.label()));
    }
    Table table = new Table(header);
    List<String[]> rows = new ArrayList<>(THROUGHPUT_ROWS);
    rows.add(new String[] {"mixed", "10,000/s offered, worker running: enqueued"});
    for (String[] row : rows) {
      boolean enqueued = row[1].endsWith("enqueued");
      ToDoubleFunction<Result> figure = enqueued ? r -> r.enqueueRate() : Result::rate;
      List<String> cells = new ArrayList<>(List.of(row[1]));
      columns.forEach(t -> cells.add(cell(figures.of(t, row[0], figure), "%,.0f")));
      if (flipper.isPresent()) {
        for (Target peer : peers) {
          String peerPhase = row[0].equals("drain-client") ? "drain" : row[0];
          cells.add(ratio(figures.of(flipper.get(), row[0], figure), figures.of(peer, peerPhase, figure)));
        }
      }
      if (cells.stream().skip(1).anyMatch(c -> !c.equals("–"))) {
        table.row(cells);
      }
    }
    return table.toString();
  }

  private String latencyTable(String store) {
    List<Target> columns = inStore(store).stream().filter(t -> t.phases().contains("latency")).toList();
    if (columns.isEmpty()) {
      return "";
    }
    List<String> header = new ArrayList<>(List.of("rate"));
    columns.forEach(t -> header.add(t.label()));
    Table table = new Table(header);
    for (int percent : new int[] {25, 50, 75, 90}) {
      String phase = "latency-" + percent;
      List<String> cells = new ArrayList<>(List.of(percent + " % of drain"));
      for (Target t : columns) {
        Optional<Figures.Stat> p50 = figures.of(t, phase, Figures.latency("p50"));
        cells.add(p50.isEmpty() ? "–" : String.format(Locale.ROOT, "%s / %s / %s", ms(p50),
            ms(figures.of(t, phase, Figures.latency("p99"))), ms(figures.of(t, phase, Figures.latency("p999")))));
      }
      if (cells.stream().skip(1).anyMatch(c -> !c.equals("–"))) {
        table.row(cells);
      }
    }
    return table.toString();
  }

  private String cpuTable() {
    Table table = new Table(
        List.of("system", "store", "enqueue, 1 per call", "enqueue, 100 per call", "drain, worker"));
    for (Target t : targets) {
      List<String> cells = new ArrayList<>(List.of(t.label(), t.store()));
      for (String phase : List.of("enqueue-single", "enqueue-batch", "drain")) {
        Optional<Figures.Stat> client = figures.of(t, phase, Figures.cpuPer10k("client"));
        if (client.isEmpty()) {
          cells.add("–");
          continue;
        }
        double server = figures.of(t, phase, Figures.cpuPer10k("server")).orElseThrow().median();
        double store = figures.of(t, phase, Figures.cpuPer10k("store")).orElseThrow().median();
        double c = client.get().median();
        cells.add(String.format(Locale.ROOT, "%.2f + %.2f + %.2f = **%.2f**", c, server, store, c + server + store));
      }
      table.row(cells);
    }
    return table.toString();
  }

  private String goalsTable() {
    Table table = new Table(List.of("goal (issue 17)", "measured", "met"));
    goal(table, "QueueWorker ≥ 2× BullMQ's Worker, Redis, drain", "flipper-redis", "bullmq", "drain", 2.0);
    goal(table, "QueueWorker ≥ 2× db-scheduler, MariaDB, drain", "flipper-mariadb", "db-scheduler", "drain", 2.0);
    goal(table, "single enqueue ≥ 1.5× BullMQ `add`", "flipper-redis", "bullmq", "enqueue-single", 1.5);
    target("flipper-mariadb").ifPresent(t -> {
      for (String[] mixed : List.of(new String[] {"mixed", "16"}, new String[] {"mixed-wide", "200"})) {
        figures.of(t, mixed[0], Result::rate).ifPresent(ran -> {
          double enqueued = figures.of(t, mixed[0], Result::enqueueRate).orElseThrow().median();
          table.row(List.of("MariaDB: consumers keep up with producers at 10k jobs/s (" + mixed[1] + " in flight)",
              String.format(Locale.ROOT, "ran %,.0f/s while %,.0f/s were enqueued", ran.median(), enqueued),
              ran.median() >= 0.95 * enqueued ? "yes" : "**no**"));
        });
      }
    });
    return table.toString();
  }

  private void goal(Table table, String text, String flipper, String peer, String phase, double factor) {
    Optional<Figures.Stat> ours = target(flipper).flatMap(t -> figures.of(t, phase, Result::rate));
    Optional<Figures.Stat> theirs = target(peer).flatMap(t -> figures.of(t, phase, Result::rate));
    if (ours.isPresent() && theirs.isPresent()) {
      double ratio = ours.get().median() / theirs.get().median();
      table.row(List.of(text, String.format(Locale.ROOT, "%.2f× (%,.0f vs %,.0f jobs/s)", ratio,
          ours.get().median(), theirs.get().median()), ratio >= factor ? "yes" : "**no**"));
    }
  }

  private Optional<Target> target(String name) {
    return targets.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  private List<String> stores() {
    return STORES.stream().filter(s -> !inStore(s).isEmpty()).toList();
  }

  private List<Target> inStore(String store) {
    return targets.stream().filter(t -> t.store().equals(store)).toList();
  }

  private static String mainFlipper(String store) {
    return "flipper-" + slug(store);
  }

  static String slug(String store) {
    return store.toLowerCase(Locale.ROOT);
  }

  private static String cell(Optional<Figures.Stat> stat, String format) {
    return stat.map(s -> String.format(Locale.ROOT, format + " (" + format + "–" + format + ")",
        s.median(), s.min(), s.max())).orElse("–");
  }

  private static String ratio(Optional<Figures.Stat> ours, Optional<Figures.Stat> theirs) {
    if (ours.isEmpty() || theirs.isEmpty() || theirs.get().median() == 0) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.2f×", ours.get().median() / theirs.get().median());
  }

  private static String ms(Optional<Figures.Stat> stat) {
    return stat.map(s -> s.median() < 10 ? String.format(Locale.ROOT, "%.1f", s.median())
        : String.format(Locale.ROOT, "%,.0f", s.median())).orElse("–");
  }

  /** A Markdown table. */
  private static final class Table {
    private final StringBuilder text = new StringBuilder();

    Table(List<String> header) {
      row(header);
      text.append("|").append("---|".repeat(header.size())).append('\n');
    }

    void row(List<String> cells) {
      text.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    @Override
    public String toString() {
      return text.toString();
    }
  }
}
