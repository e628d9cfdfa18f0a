package dev.flipper.config;

import java.util.List;

/**
 * The configuration is wrong. The message is exactly the error lines, one per problem, each
 * starting with where it was found: {@code conf.yaml:12: unknown key 'queue.prot' (did you mean
 * 'queue.port'?)}. Meant to be printed as is, without a stack trace.
 */
public final class ConfigException extends RuntimeException {
  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(String.join("\n", problems), null, false, false);
    this.problems = List.copyOf(problems);
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }

  /** The error lines. */
  public List<String> problems() {
    return problems;
  }
}
