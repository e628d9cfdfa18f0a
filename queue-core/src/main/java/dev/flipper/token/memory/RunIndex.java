package dev.flipper.token.memory;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.history.RunSort;
import dev.flipper.token.spi.RunSearchText;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The run history in memory: each archived instance's run and executions, keyed by workflow and
 * instance, filtered and sorted as {@link RunQuery} and {@link ExecutionQuery} say by scanning
 * every record. Not thread-safe: the store calls it under its lock.
 */
final class RunIndex {
  /** The tie-break of every run order. */
  private static final Comparator<RunRecord> BY_KEY =
      Comparator.comparing(RunRecord::workflow).thenComparing(RunRecord::instance);

  private static final Comparator<RunRecord> BY_START =
      Comparator.comparingLong(RunRecord::startMillis);

  /** Runs without an end come after every run with one, whichever way durations are sorted. */
  private static final Comparator<RunRecord> UNENDED_LAST =
      Comparator.comparing(run -> run.endMillis() == null);

  private static final Comparator<RunRecord> BY_DURATION =
      Comparator.comparingLong(run -> run.durationMillis().orElse(0L));

  private static final Comparator<ExecutionRecord> NEWEST_EXECUTION_FIRST =
      Comparator.comparingLong(ExecutionRecord::startMillis)
          .reversed()
          .thenComparing(ExecutionRecord::instance)
          .thenComparing(ExecutionRecord::job)
          .thenComparingInt(ExecutionRecord::execution);

  private record Key(String workflow, String instance) {}

  private final Map<Key, RunArchive> archives =
      new TreeMap<>(Comparator.comparing(Key::workflow).thenComparing(Key::instance));

  /** Records the instance's run and executions in place of any earlier record of it. */
  void replace(RunArchive archive) {
    archives.put(new Key(archive.run().workflow(), archive.run().instance()), archive);
  }

  /** Forgets an instance; returns how many rows (its run and executions) went. */
  int delete(String workflow, String instance) {
    RunArchive removed = archives.remove(new Key(workflow, instance));
    return removed == null ? 0 : 1 + removed.executions().size();
  }

  RunPage query(RunQuery query) {
    List<RunRecord> matches =
        archives.values().stream().map(RunArchive::run).filter(matcher(query)).toList();
    List<RunRecord> page =
        matches.stream()
            .sorted(order(query.sort()))
            .skip(query.offset())
            .limit(query.limit())
            .toList();
    return new RunPage(page, matches.size());
  }

  ExecutionPage query(ExecutionQuery query) {
    Set<String> instances = new HashSet<>(query.instances());
    List<ExecutionRecord> matches =
        archives.values().stream()
            .filter(archive -> archive.run().workflow().equals(query.workflow()))
            .filter(archive -> instances.isEmpty() || instances.contains(archive.run().instance()))
            .flatMap(archive -> archive.executions().stream())
            .filter(e -> query.job() == null || query.job().equals(e.job()))
            .filter(e -> query.statuses().isEmpty() || query.statuses().contains(e.status()))
            .toList();
    List<ExecutionRecord> page =
        matches.stream()
            .sorted(NEWEST_EXECUTION_FIRST)
            .skip(query.offset())
            .limit(query.limit())
            .toList();
    return new ExecutionPage(page, matches.size());
  }

  private static Predicate<RunRecord> matcher(RunQuery query) {
    String text = query.text() == null ? null : RunSearchText.lowerCase(query.text());
    return run ->
        (query.workflow() == null || query.workflow().equals(run.workflow()))
            && (query.statuses().isEmpty() || query.statuses().contains(run.status()))
            && (query.startedBy().isEmpty() || query.startedBy().contains(run.startedBy()))
            && (query.startFrom() == null || run.startMillis() >= query.startFrom())
            && (query.startBefore() == null || run.startMillis() < query.startBefore())
            && (text == null || RunSearchText.of(run).contains(text));
  }

  private static Comparator<RunRecord> order(RunSort sort) {
    Comparator<RunRecord> primary =
        switch (sort) {
          case NEWEST -> BY_START.reversed();
          case OLDEST -> BY_START;
          case LONGEST -> UNENDED_LAST.thenComparing(BY_DURATION.reversed());
          case SHORTEST -> UNENDED_LAST.thenComparing(BY_DURATION);
        };
    return primary.thenComparing(BY_KEY);
  }
}
