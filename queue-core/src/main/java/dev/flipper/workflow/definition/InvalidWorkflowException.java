package dev.flipper.workflow.definition;

import java.util.List;

/**
 * A workflow definition is invalid. The message is exactly the problem lines, one per problem: from
 * a file each starts with where it was found ({@code etl.yaml:14: cycle: a -> b -> a}); from a Java
 * builder they carry no location. Meant to be printed as is, without a stack trace.
 */
public final class InvalidWorkflowException extends RuntimeException {
  private final List<String> problems;

  public InvalidWorkflowException(List<String> problems) {
    super(String.join("\n", problems), null, false, false);
    this.problems = List.copyOf(problems);
  }

  /** The problem lines, in file order. */
  public List<String> problems() {
    return problems;
  }
}
