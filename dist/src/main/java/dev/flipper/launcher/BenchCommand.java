package dev.flipper.launcher;

import dev.flipper.queue.mysql.bench.JdbcQueueBenchmark;
import dev.flipper.queue.redis.bench.RedisQueueBenchmark;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code flipper bench jdbc|redis|tokens [options]}: the benchmarks, which print figures. They WRITE to the
 * database or Redis they are pointed at (each under its own name, removed at the end). Not tests.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Runs a benchmark and prints its figures. WRITES DATA to the store it is pointed at (its own "
            + "database, key prefix or name prefix, removed at the end).",
    subcommands = {BenchCommand.Jdbc.class, BenchCommand.Redis.class})
final class BenchCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return Launcher.EXIT_USAGE;
  }

  @Command(
      name = "jdbc",
      description =
          "The queue on MariaDB/MySQL/H2 next to the same SQL over raw JDBC: enqueue at batch 1 and 100, "
              + "dequeue+ack at batch 100, the full cycle. Options: --url=jdbc:mysql://127.0.0.1:3306/ "
              + "--user=root --password= --threads=4 --seconds=5 --body-bytes=100 --backlog=100000 --repeat=2 "
              + "--phases=enqueue1,enqueue100,dequeue100,cycle[,cycle-piggyback] --workloads=flipper,raw "
              + "(also prints the statements the server ran per 100 jobs)")
  static final class Jdbc implements Callable<Integer> {
    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      JdbcQueueBenchmark.main(args.toArray(String[]::new));
      return 0;
    }
  }

  @Command(
      name = "redis",
      description =
          "The full enqueue->dequeue->ack cycle on Redis, next to redis-benchmark figures from the same "
              + "run. Options: --host 127.0.0.1 --port 6379 --threads 4 --batch 100 --seconds 20 --warmup 5 "
              + "--body-bytes 64 --shards 1 --skip-redis-benchmark")
  static final class Redis implements Callable<Integer> {
    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      RedisQueueBenchmark.main(args.toArray(String[]::new));
      return 0;
    }
  }
}
