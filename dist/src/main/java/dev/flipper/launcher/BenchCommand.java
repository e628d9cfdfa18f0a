package dev.flipper.launcher;

import dev.flipper.bench.CliBenchmark;
import dev.flipper.bench.FaultBenchmark;
import dev.flipper.bench.FilterBenchmark;
import dev.flipper.bench.FuzzBenchmark;
import dev.flipper.bench.JdbcQueueBenchmark;
import dev.flipper.bench.RedisQueueBenchmark;
import dev.flipper.bench.ScheduleBenchmark;
import dev.flipper.bench.TokenBenchmark;
import dev.flipper.bench.UiBenchmark;
import dev.flipper.bench.WorkerBenchmark;
import dev.flipper.bench.WorkflowBenchmark;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench jdbc|redis|tokens|workflows|schedules|ui|worker|filters|faults|fuzz
 * [options]}: the benchmarks, which print figures. Each is a picocli command of its own, so {@code
 * --help} helps and an unknown option is an error before anything is written. They WRITE to the
 * database or Redis they are pointed at, only to their own database, H2 file or key prefix, which
 * they delete at the end. Not tests.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Runs a benchmark and prints its figures.",
      "WRITES DATA to the store it is pointed at (only to its own database, H2 file or key prefix, deleted at the "
          + "end)."
    },
    subcommands = {
      JdbcQueueBenchmark.class,
      RedisQueueBenchmark.class,
      TokenBenchmark.class,
      WorkflowBenchmark.class,
      ScheduleBenchmark.class,
      UiBenchmark.class,
      WorkerBenchmark.class,
      FilterBenchmark.class,
      FaultBenchmark.class,
      FuzzBenchmark.class,
      CliBenchmark.class
    })
final class BenchCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return Launcher.EXIT_USAGE;
  }
}
