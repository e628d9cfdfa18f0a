package dev.flipper.workflow.engine;

import dev.flipper.token.Token;
import dev.flipper.workflow.engine.internal.InstanceStarter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Starting workflow instances. Thread-safe. */
public final class Instances {
  private final Definitions definitions;
  private final InstanceStarter starter;

  Instances(Definitions definitions, InstanceStarter starter) {
    this.definitions = definitions;
    this.starter = starter;
  }

  /**
   * Starts an instance of the stored workflow in one atomic modify: its record, every job waiting,
   * the jobs without parents runnable at once. Returns the instance id (the start time in epoch
   * milliseconds).
   *
   * @param startedBy who started it, for the record: {@code cli}, {@code scheduler}, ...
   * @param params free parameters kept in the instance record (the scheduler puts the scheduled
   *     time here)
   * @throws IllegalArgumentException if no workflow of that name is stored
   */
  public String start(String workflow, String startedBy, Map<String, String> params) {
    return start(workflow, startedBy, params, List.of());
  }

  /**
   * Starts an instance as {@link #start(String, String, Map)} and writes {@code alongside} in the
   * same atomic change: the scheduler advances its schedule token (with its version) together with
   * the start, so a schedule is never fired twice.
   *
   * @throws dev.flipper.token.TokenException VERSION_CONFLICT (or NOT_FOUND) if an {@code
   *     alongside} token changed since it was read; then nothing was written
   */
  public String start(
      String workflow, String startedBy, Map<String, String> params, List<Token> alongside) {
    StoredDefinition stored =
        definitions
            .get(workflow)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no workflow '"
                            + workflow
                            + "' in the master; store it first with: flipper workflow apply FILE"));
    return starter.start(stored, startedBy, params, alongside);
  }

  /**
   * The tokens (all inserts) that would start instance {@code instance} of the stored workflow,
   * without writing them, or empty if no workflow of that name is stored. For starting several
   * instances in one atomic modify (the scheduler fires a batch of due schedules in one change):
   * the caller picks the id, and a taken id makes that modify fail with VERSION_CONFLICT, writing
   * nothing.
   */
  public Optional<List<Token>> startTokens(
      String workflow, String instance, String startedBy, Map<String, String> params) {
    return definitions
        .get(workflow)
        .map(stored -> starter.startTokens(stored, instance, startedBy, params));
  }

  /**
   * The tokens that would start instance {@code instance} of {@code stored}, a definition the
   * caller read already (the scheduler reads many in one call; a poisoned copy starts from an
   * archived one).
   */
  public List<Token> startTokens(
      StoredDefinition stored, String instance, String startedBy, Map<String, String> params) {
    return starter.startTokens(stored, instance, startedBy, params);
  }

  public String start(String workflow) {
    return start(workflow, "api", Map.of());
  }
}
