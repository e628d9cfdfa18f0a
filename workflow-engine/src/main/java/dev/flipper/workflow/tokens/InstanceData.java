package dev.flipper.workflow.tokens;

import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The instance record ({@code kind: "instance"}, token {@code /workflow/<wf>/<inst>/instance}).
 * Written at the start, when a job fails for good (so the first failure is known) and once at the
 * end.
 */
public final class InstanceData extends TokenData {
  public String workflow;
  public String instance;

  /** RUNNING, SUCCESS, FAILURE or ABORTED. */
  public String status = "RUNNING";

  public long startMillis;
  public Long endMillis;

  /** The {@code version} of the definition the instance was started from. */
  public String definitionVersion;

  /** Who started it: {@code cli}, {@code scheduler}, ... */
  public String startedBy;

  /** Free parameters given at the start, such as the scheduled time. */
  public Map<String, String> params = new LinkedHashMap<>();

  /** Jobs that failed for good, in the order they failed; any makes the instance end as FAILURE. */
  public List<String> failedJobs = new ArrayList<>();

  public InstanceData() {
    super("instance");
  }

  /**
   * This record as the CLI, the UI and the engine's listener see it.
   *
   * @throws IllegalStateException for a status this release does not know (written by a newer one)
   */
  public InstanceSummary toSummary() {
    return new InstanceSummary(
        workflow,
        instance,
        knownStatus(),
        Instant.ofEpochMilli(startMillis),
        Optional.ofNullable(endMillis).map(Instant::ofEpochMilli),
        definitionVersion,
        startedBy,
        Map.copyOf(params),
        List.copyOf(failedJobs),
        Optional.empty());
  }

  /**
   * {@link #status} as this release knows it.
   *
   * @throws IllegalStateException {@code unknown status FOO} for one it does not
   */
  public InstanceStatus knownStatus() {
    for (InstanceStatus known : InstanceStatus.values()) {
      if (known.name().equals(status)) {
        return known;
      }
    }
    throw new IllegalStateException("unknown status " + status);
  }
}
