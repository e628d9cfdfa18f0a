package dev.flipper.workflow.scheduler;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An {@link InstanceStarter} that builds an instance's tokens itself ({@link #startTokens}) and
 * writes them, so the scheduler can batch starts. Instance ids are the start time in ms, the next
 * millisecond when one is taken (as the engine does). Subclasses are thread-safe if their {@code
 * startTokens} is.
 */
public abstract class TokenInstanceStarter implements InstanceStarter {
  private static final int MAX_ID_TRIES = 100;

  private final TokenMaster master;
  private final Clock clock;

  protected TokenInstanceStarter(TokenMaster master, Clock clock) {
    this.master = master;
    this.clock = clock;
  }

  @Override
  public abstract Optional<List<Token>> startTokens(
      String workflow, String instanceId, Map<String, String> params);

  /**
   * The prefix under which instance {@code instanceId}'s tokens live, to tell a taken id from a
   * changed token.
   */
  protected abstract String instancePrefix(String workflow, String instanceId);

  @Override
  public final boolean buildsTokens() {
    return true;
  }

  @Override
  public Optional<String> start(
      String workflow, Map<String, String> params, List<Token> alongside) {
    long now = clock.millis();
    for (int i = 0; i < MAX_ID_TRIES; i++) {
      String id = Long.toString(now + i);
      Optional<List<Token>> tokens = startTokens(workflow, id, params);
      if (tokens.isEmpty()) {
        return Optional.empty();
      }
      List<Token> updates = new ArrayList<>(tokens.get());
      updates.addAll(alongside);
      try {
        master.modify(new ModifyParams(updates, List.of()));
        return Optional.of(id);
      } catch (TokenException e) {
        if (e.errorCode() != TokenErrorCode.VERSION_CONFLICT
            || master.query(Query.prefix(instancePrefix(workflow, id))).isEmpty()) {
          throw e; // not a taken id: an alongside token changed
        }
      }
    }
    throw new IllegalStateException(
        "no free instance id for workflow '"
            + workflow
            + "' from "
            + now
            + " to "
            + (now + MAX_ID_TRIES)
            + ": is the clock stuck?");
  }
}
