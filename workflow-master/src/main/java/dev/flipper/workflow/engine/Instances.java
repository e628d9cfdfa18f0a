package dev.flipper.workflow.engine;

import dev.flipper.workflow.engine.internal.InstanceStarter;
import java.util.Map;

/** Starting workflow instances. Thread-safe. */
public final class Instances {
  private final Definitions definitions;
  private final InstanceStarter starter;

  Instances(Definitions definitions, InstanceStarter starter) {
    this.definitions = definitions;
    this.starter = starter;
  }

  /**
   * Starts an instance of the stored workflow in one atomic modify: its record, every job waiting, the jobs
   * without parents runnable at once. Returns the instance id (the start time in epoch milliseconds).
   *
   * @param startedBy who started it, for the record: {@code cli}, {@code scheduler}, ...
   * @param params free parameters kept in the instance record (the scheduler puts the scheduled time here)
   * @throws IllegalArgumentException if no workflow of that name is stored
   */
  public String start(String workflow, String startedBy, Map<String, String> params) {
    StoredDefinition stored = definitions.get(workflow).orElseThrow(() -> new IllegalArgumentException(
        "no workflow '" + workflow + "' in the master; store it first with: flipper workflow apply FILE"));
    return starter.start(stored, startedBy, params);
  }

  public String start(String workflow) {
    return start(workflow, "api", Map.of());
  }
}
