package dev.flipper.workflow.control;

import dev.flipper.text.Readable;
import dev.flipper.token.Token;
import dev.flipper.workflow.tokens.ArchiveData;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code cleanup} (docs/workflows.md, "Control operations"): deletes for good the archived
 * instances that ended more than {@code age} ago (default 28 days, at least 7), each instance's
 * archived tokens by prefix. Archived tokens are written by nobody, so the deletes need no version
 * check; a repeated call finds nothing. The result lists the log URLs of the deleted executions,
 * for whoever deletes the log files on the workers. Thread-safe.
 */
final class CleanupOperation {
  static final Duration DEFAULT_AGE = Duration.ofDays(28);
  static final Duration MIN_AGE = Duration.ofDays(7);

  private final ArchivedTokens archived;
  private final Clock clock;

  CleanupOperation(ArchivedTokens archived, Clock clock) {
    this.archived = archived;
    this.clock = clock;
  }

  ControlResult cleanup(Duration age) {
    if (age.compareTo(MIN_AGE) < 0) {
      throw new IllegalArgumentException(
          "cleanup age is "
              + age.toDays()
              + "d; use at least "
              + MIN_AGE.toDays()
              + "d (the default is "
              + DEFAULT_AGE.toDays()
              + "d), so recent history stays for retries");
    }
    long cutoff = clock.millis() - age.toMillis();
    Map<String, Token> archives = latest(archived.query(TokenLayout.ARCHIVE));
    List<ControlResult.Change> changes = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Set<String> logs = new LinkedHashSet<>();
    Set<String> deletedArchives = new LinkedHashSet<>();
    for (Token archive : archives.values()) {
      String[] parts = TokenLayout.parseArchive(archive.name());
      String wf = parts[0];
      String inst = parts[1];
      Map<String, Token> tokens = latest(archived.query(TokenLayout.instancePrefix(wf, inst)));
      tokens.putAll(latest(archived.query(TokenLayout.runnablePrefix(wf, inst))));
      Token record = tokens.get(TokenLayout.instanceRecord(wf, inst));
      Long recordEnd = record == null ? null : Json.read(record, InstanceData.class).endMillis;
      long ended = recordEnd != null ? recordEnd : Json.read(archive, ArchiveData.class).dueMillis;
      if (ended >= cutoff) {
        continue;
      }
      for (Token token : tokens.values()) {
        if (token.name().startsWith(TokenLayout.waitingPrefix(wf, inst))
            || token.name().startsWith(TokenLayout.runnablePrefix(wf, inst))) {
          for (ExecutionData execution : Json.read(token, JobData.class).history) {
            logs.addAll(execution.logs.values());
          }
        }
      }
      int deleted =
          archived.delete(TokenLayout.instancePrefix(wf, inst))
              + archived.delete(TokenLayout.runnablePrefix(wf, inst))
              + archived.delete(TokenLayout.instanceSignalPrefix(wf, inst));
      archived.deleteRun(wf, inst);
      deletedArchives.add(archive.name());
      changes.add(
          new ControlResult.Change(
              "deleted",
              TokenLayout.instancePrefix(wf, inst),
              deleted + " archived tokens of " + wf + "/" + inst));
    }
    for (String name : deletedArchives) {
      // Deletes go by prefix: /archive/wf/12 would also take /archive/wf/123, so only when that one
      // goes too.
      boolean shared =
          archives.keySet().stream()
              .anyMatch(
                  other ->
                      !other.equals(name)
                          && other.startsWith(name)
                          && !deletedArchives.contains(other));
      if (shared) {
        notes.add(name + " kept: its name is a prefix of an archived instance that stays");
      } else {
        archived.delete(name);
        changes.add(new ControlResult.Change("deleted", name, "archived"));
      }
    }
    if (changes.isEmpty()) {
      notes.add("no archived instance ended before " + Readable.time(Instant.ofEpochMilli(cutoff)));
    }
    return new ControlResult(
        "cleanup", "global", changes, notes, Optional.empty(), List.copyOf(logs));
  }

  /** The newest archived version of each name. */
  private static Map<String, Token> latest(List<Token> tokens) {
    Map<String, Token> latest = new LinkedHashMap<>();
    tokens.forEach(t -> latest.merge(t.name(), t, (a, b) -> a.version() >= b.version() ? a : b));
    return latest;
  }
}
