package dev.flipper.workflow.fleet;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Listing;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The workers' heartbeats, one token per worker process: {@code /worker/<name>} (docs/tokens.md),
 * written by the worker every {@code workers.heartbeatInterval} and deleted when it stops cleanly.
 * A worker that dies leaves its last beat, which then ages: readers count it dead once older than
 * its {@code deadAfter}. No lease is used, so the token also tells when a dead worker was last
 * seen. Stateless; thread-safe.
 */
public final class Heartbeats {
  /** Every heartbeat token is under this prefix. */
  public static final String PREFIX = TokenLayout.WORKERS;

  private final TokenMaster master;

  public Heartbeats(TokenMaster master) {
    this.master = master;
  }

  public static String tokenName(String worker) {
    return PREFIX + worker;
  }

  /**
   * Writes this beat and reads the EXIT signal in the same round: one query (the worker's own token
   * and the global signals), one modify. Returns the generation an EXIT signal asks for, if one is
   * set.
   */
  public Optional<Integer> beat(Heartbeat beat) {
    String name = tokenName(beat.name());
    String data = Json.write(HeartbeatData.of(beat));
    // Names are unique: a conflict is our own earlier write whose answer was lost, or forgetDead
    // meanwhile.
    return ConflictRetry.run(
        "heartbeat of " + beat.name(),
        3,
        () -> {
          List<List<Token>> read =
              master.query(
                  List.of(Query.prefix(name), Query.prefix(TokenLayout.globalSignalPrefix())));
          long version =
              read.get(0).stream()
                  .filter(t -> t.name().equals(name))
                  .findFirst()
                  .map(Token::version)
                  .orElse(Token.NO_VERSION);
          master.modify(ModifyParams.updating(new Token(version, name, null, 0, 0, data)));
          return ExitSignal.generationAmong(read.get(1));
        });
  }

  /** Deletes a worker's heartbeat (a clean stop); false if there was none. */
  public boolean remove(String worker) {
    String name = tokenName(worker);
    Optional<Token> stored =
        master.query(Query.prefix(name)).stream().filter(t -> t.name().equals(name)).findFirst();
    if (stored.isEmpty()) {
      return false;
    }
    master.modify(ModifyParams.deleting(stored.get()));
    return true;
  }

  /**
   * Deletes the heartbeats of dead workers (killed processes leave theirs); returns their names. A
   * worker that beats again meanwhile keeps its heartbeat (the delete is version-checked).
   */
  public List<String> forgetDead(Instant now) {
    List<String> forgotten = new ArrayList<>();
    for (Token token : master.query(Query.prefix(PREFIX))) {
      List<Heartbeat> read = Listing.decode(List.of(token), Heartbeats::decode).items();
      if (read.isEmpty() || read.get(0).aliveAt(now)) {
        continue; // a damaged heartbeat is listed as such; deleting it is the token tool's job
      }
      Heartbeat beat = read.get(0);
      try {
        master.modify(ModifyParams.deleting(token));
        forgotten.add(beat.name());
      } catch (TokenException e) {
        if (!ConflictRetry.isConflict(e)) {
          throw e;
        }
      }
    }
    return forgotten;
  }

  /** Every heartbeat, alive or dead, by name; one that does not parse is left out. */
  public List<Heartbeat> list() {
    return listing().items();
  }

  /** {@link #list}, with the heartbeats that do not parse as damaged entries. */
  public Listing<Heartbeat> listing() {
    return parse(master.query(Query.prefix(PREFIX)));
  }

  /** Heartbeats of these tokens (those of {@link #PREFIX}), by name. */
  public static Listing<Heartbeat> parse(List<Token> tokens) {
    Listing<Heartbeat> read =
        Listing.decode(
            tokens.stream().filter(t -> t.name().startsWith(PREFIX)).toList(), Heartbeats::decode);
    List<Heartbeat> beats = new ArrayList<>(read.items());
    beats.sort(Comparator.comparing(Heartbeat::name));
    return new Listing<>(beats, read.damaged());
  }

  private static Heartbeat decode(Token token) {
    return Json.read(token, HeartbeatData.class).toHeartbeat();
  }

  /** The stored form ({@code kind: "worker"}). */
  static final class HeartbeatData extends dev.flipper.workflow.tokens.TokenData {
    public String name;
    public String host;
    public String adminUrl;
    public int generation;
    public int slots;
    public List<String> running = new ArrayList<>();
    public boolean retiring;
    public long startedMillis;
    public long beatMillis;
    public long deadAfterMillis;

    HeartbeatData() {
      super("worker");
    }

    static HeartbeatData of(Heartbeat beat) {
      HeartbeatData data = new HeartbeatData();
      data.name = beat.name();
      data.host = beat.host();
      data.adminUrl = beat.adminUrl().orElse(null);
      data.generation = beat.generation();
      data.slots = beat.slots();
      data.running = new ArrayList<>(beat.running());
      data.retiring = beat.retiring();
      data.startedMillis = beat.started().toEpochMilli();
      data.beatMillis = beat.beat().toEpochMilli();
      data.deadAfterMillis = beat.deadAfter().toMillis();
      return data;
    }

    Heartbeat toHeartbeat() {
      return new Heartbeat(
          name,
          host == null ? "" : host,
          Optional.ofNullable(adminUrl),
          generation,
          slots,
          running,
          retiring,
          Instant.ofEpochMilli(startedMillis),
          Instant.ofEpochMilli(beatMillis),
          Duration.ofMillis(deadAfterMillis));
    }
  }
}
