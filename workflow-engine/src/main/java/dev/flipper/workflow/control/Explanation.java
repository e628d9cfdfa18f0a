package dev.flipper.workflow.control;

import java.util.List;
import java.util.Objects;

/**
 * The answer of {@link Explainer}: a reason code and the same in plain words; for an instance, also
 * the explanation of each job that has not finished. Immutable.
 *
 * @param subject what is explained: {@code wf}, {@code wf/instance} or {@code wf/instance/job}
 * @param reason the code
 * @param text one or two sentences for an operator
 * @param jobs for an instance: its unfinished jobs, parents first; else empty
 */
public record Explanation(String subject, Reason reason, String text, List<Explanation> jobs) {
  public Explanation {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(text, "text");
    jobs = List.copyOf(jobs);
  }

  static Explanation of(String subject, Reason reason, String text) {
    return new Explanation(subject, reason, text, List.of());
  }
}
