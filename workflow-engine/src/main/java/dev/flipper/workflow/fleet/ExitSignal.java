package dev.flipper.workflow.fleet;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.SignalData;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The global EXIT signal of upgrades (docs/operations.md, "Upgrading workers"): workers whose
 * {@code workers.generation} is below the signal's generation stop claiming, finish the jobs they
 * run and exit; workers of that generation or newer ignore it. Each call is one atomic change,
 * retried as a whole on a version conflict, and says what it changed; a repeated call changes
 * nothing. Thread-safe.
 */
public final class ExitSignal {
  private final TokenMaster master;
  private final Clock clock;

  public ExitSignal(TokenMaster master, Clock clock) {
    this.master = master;
    this.clock = clock;
  }

  /**
   * What a call did. {@code before} and {@code after} are the generations asked for (empty = no
   * EXIT).
   */
  public record Change(Optional<Integer> before, Optional<Integer> after) {
    public boolean changed() {
      return !before.equals(after);
    }
  }

  /** The generation the EXIT signal asks for; empty if none is set. */
  public Optional<Integer> generation() {
    return read().map(ExitSignal::generationOf);
  }

  /**
   * Sets EXIT for workers older than {@code generation} (a newer value replaces an older one).
   *
   * @throws IllegalArgumentException if {@code generation} is below 1
   */
  public Change set(int generation) {
    if (generation < 1) {
      throw new IllegalArgumentException(
          "generation is " + generation + "; generations start at 1");
    }
    return ConflictRetry.run(
        "exit signal",
        () -> {
          Optional<Token> stored = read();
          Optional<Integer> before = stored.map(ExitSignal::generationOf);
          if (before.equals(Optional.of(generation))) {
            return new Change(before, before);
          }
          SignalData data = new SignalData();
          data.action = SignalAction.EXIT.name();
          data.generation = generation;
          data.timestampMillis = clock.millis();
          long version = stored.map(Token::version).orElse(Token.NO_VERSION);
          master.modify(
              ModifyParams.updating(
                  new Token(
                      version,
                      TokenLayout.globalSignal(SignalAction.EXIT),
                      null,
                      0,
                      0,
                      Json.write(data))));
          return new Change(before, Optional.of(generation));
        });
  }

  /** Removes the EXIT signal, once every old worker is gone. */
  public Change clear() {
    return ConflictRetry.run(
        "exit signal",
        () -> {
          Optional<Token> stored = read();
          if (stored.isEmpty()) {
            return new Change(Optional.empty(), Optional.empty());
          }
          master.modify(ModifyParams.deleting(stored.get()));
          return new Change(stored.map(ExitSignal::generationOf), Optional.empty());
        });
  }

  private Optional<Token> read() {
    String name = TokenLayout.globalSignal(SignalAction.EXIT);
    return master.query(Query.prefix(name)).stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /**
   * The generation the global EXIT signal among these tokens asks for (any other token is skipped);
   * empty if there is none.
   */
  public static Optional<Integer> generationAmong(List<Token> tokens) {
    String name = TokenLayout.globalSignal(SignalAction.EXIT);
    return tokens.stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .map(ExitSignal::generationOf);
  }

  /** An EXIT without a generation (written by hand) retires every worker. */
  private static int generationOf(Token token) {
    Integer generation = Json.read(token, SignalData.class).generation;
    return generation == null ? Integer.MAX_VALUE : generation;
  }
}
