package dev.flipper.token.memory;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The run history in memory: each archived instance's run and executions, keyed by workflow and
 * instance, filtered and sorted by {@link RunQuery#matches}, {@link RunQuery#order} and their
 * execution twins, scanning every record. Not thread-safe: the store calls it under its lock.
 */
final class RunIndex {
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
        archives.values().stream().map(RunArchive::run).filter(query::matches).toList();
    List<RunRecord> page =
        matches.stream().sorted(query.order()).skip(query.offset()).limit(query.limit()).toList();
    return new RunPage(page, matches.size());
  }

  ExecutionPage query(ExecutionQuery query) {
    Set<String> instances = new HashSet<>(query.instances());
    List<ExecutionRecord> matches =
        archives.values().stream()
            .filter(archive -> archive.run().workflow().equals(query.workflow()))
            .filter(archive -> instances.isEmpty() || instances.contains(archive.run().instance()))
            .flatMap(archive -> archive.executions().stream())
            .filter(query::matches)
            .toList();
    List<ExecutionRecord> page =
        matches.stream()
            .sorted(ExecutionQuery.ORDER)
            .skip(query.offset())
            .limit(query.limit())
            .toList();
    return new ExecutionPage(page, matches.size());
  }
}
