package dev.flipper.config;

import dev.flipper.config.RawNode.Where;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects configuration errors so one run reports all of them, in file order. Not thread-safe. */
final class Problems {
  private record Problem(Where where, String message) {}

  private final List<Problem> problems = new ArrayList<>();

  void add(Where where, String message) {
    problems.add(new Problem(where, message));
  }

  boolean isEmpty() {
    return problems.isEmpty();
  }

  /** Throws the collected problems, one line each, if there are any. */
  void throwIfAny() {
    if (problems.isEmpty()) {
      return;
    }
    List<String> lines =
        problems.stream()
            .sorted(Comparator.comparingInt(p -> p.where().order())) // stable: same line keeps found order
            .map(p -> p.where().label() + ": " + p.message())
            .distinct()
            .toList();
    throw new ConfigException(lines);
  }
}
