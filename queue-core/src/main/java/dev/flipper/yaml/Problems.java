package dev.flipper.yaml;

import dev.flipper.yaml.RawNode.Where;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Collects problems found in a file so that one run reports all of them, in file order, each as one
 * line {@code file:line: message}. Not thread-safe.
 */
public final class Problems {
  private record Problem(Where where, String message) {}

  private final List<Problem> problems = new ArrayList<>();

  public void add(Where where, String message) {
    problems.add(new Problem(where, message));
  }

  public boolean isEmpty() {
    return problems.isEmpty();
  }

  /**
   * The problems, one line each: sorted by line (problems on one line keep the order they were
   * found in), without repeats. A problem at {@link Where#NOWHERE} is its bare message.
   */
  public List<String> lines() {
    return problems.stream()
        .sorted(Comparator.comparingInt(p -> p.where().order()))
        .map(
            p -> p.where().label().isEmpty() ? p.message() : p.where().label() + ": " + p.message())
        .distinct()
        .toList();
  }

  /**
   * Throws the exception that {@code toException} makes of {@link #lines()}, if there are any
   * problems.
   */
  public <E extends RuntimeException> void throwIfAny(Function<List<String>, E> toException) {
    if (!problems.isEmpty()) {
      throw toException.apply(lines());
    }
  }
}
