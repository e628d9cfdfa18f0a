package dev.flipper.workflow.engine;

import dev.flipper.workflow.tokens.DamagedToken;
import java.util.List;
import java.util.Optional;

/**
 * An instance with its jobs in run order (parents before children, ties by name). Immutable.
 *
 * @param damaged job tokens of the instance that do not parse (not among {@code jobs})
 */
public record InstanceDetail(
    InstanceSummary summary, List<JobDetail> jobs, List<DamagedToken> damaged) {
  public InstanceDetail {
    jobs = List.copyOf(jobs);
    damaged = List.copyOf(damaged);
  }

  public Optional<JobDetail> job(String name) {
    return jobs.stream().filter(j -> j.name().equals(name)).findFirst();
  }
}
