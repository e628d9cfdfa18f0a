package dev.flipper.workflow.engine;

import java.util.List;
import java.util.Optional;

/** An instance with its jobs in run order (parents before children, ties by name). Immutable. */
public record InstanceDetail(InstanceSummary summary, List<JobDetail> jobs) {
  public Optional<JobDetail> job(String name) {
    return jobs.stream().filter(j -> j.name().equals(name)).findFirst();
  }
}
