package dev.flipper.workflow.engine.internal;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.definition.WorkflowParser;
import dev.flipper.workflow.engine.ApplyResult;
import dev.flipper.workflow.engine.DamagedDefinitionException;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.DamagedTokenException;
import dev.flipper.workflow.tokens.DefinitionData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Listing;
import dev.flipper.workflow.tokens.TokenLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reads and writes definition tokens ({@code /definition/<wf>}). Thread-safe. */
public final class DefinitionStore {
  private final TokenMaster master;
  private final Clock clock;

  public DefinitionStore(TokenMaster master, Clock clock) {
    this.master = master;
    this.clock = clock;
  }

  /** Stores the definitions in one atomic modify; see {@code Definitions.apply}. */
  public ApplyResult apply(List<WorkflowDefinition> definitions, boolean prune) {
    Map<String, DefinitionData> wanted = new TreeMap<>();
    for (WorkflowDefinition definition : definitions) {
      DefinitionData data = new DefinitionData();
      data.workflow = definition.name();
      data.yaml = definition.toYaml();
      data.version = version(data.yaml);
      if (wanted.put(definition.name(), data) != null) {
        throw new IllegalArgumentException(
            "workflow '" + definition.name() + "' is given twice; names are unique");
      }
    }
    return ConflictRetry.run("apply definitions", () -> applyOnce(wanted, prune));
  }

  private ApplyResult applyOnce(Map<String, DefinitionData> wanted, boolean prune) {
    Map<String, Token> stored = new LinkedHashMap<>();
    for (Token token : master.query(Query.prefix(TokenLayout.DEFINITIONS))) {
      stored.put(TokenLayout.last(token.name()), token);
    }
    List<String> added = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    List<String> repaired = new ArrayList<>();
    List<Token> updates = new ArrayList<>();
    List<Token> deletes = new ArrayList<>();
    long now = clock.millis();
    for (DefinitionData data : wanted.values()) {
      Token old = stored.get(data.workflow);
      boolean intact = old != null && intact(old);
      if (intact && data.version.equals(Json.read(old, DefinitionData.class).version)) {
        unchanged.add(data.workflow);
        continue;
      }
      data.appliedMillis = now;
      String json = Json.write(data);
      if (old == null) {
        added.add(data.workflow);
        updates.add(Token.of(TokenLayout.definition(data.workflow), json));
      } else {
        (intact ? changed : repaired).add(data.workflow);
        updates.add(old.withData(json));
      }
    }
    if (prune) {
      for (Map.Entry<String, Token> entry : stored.entrySet()) {
        if (!wanted.containsKey(entry.getKey())) {
          removed.add(entry.getKey());
          deletes.add(entry.getValue());
        }
      }
    }
    if (!updates.isEmpty() || !deletes.isEmpty()) {
      master.modify(new ModifyParams(updates, deletes));
    }
    return new ApplyResult(added, changed, removed, unchanged, repaired);
  }

  /**
   * The stored definition of a workflow.
   *
   * @throws DamagedDefinitionException if it does not parse or its text does not match its version
   */
  public Optional<StoredDefinition> get(String workflow) {
    List<Token> tokens = master.query(Query.prefix(TokenLayout.definition(workflow)));
    return tokens.stream()
        .filter(t -> t.name().equals(TokenLayout.definition(workflow)))
        .findFirst()
        .map(t -> DamagedToken.decode(t, DefinitionStore::decode));
  }

  /**
   * Every stored definition; a damaged one (see {@link #decode}) is left out with a warning, so one
   * tampered token neither runs nor hides the other workflows. {@link #get} of it throws.
   */
  public List<StoredDefinition> list() {
    return listing().items();
  }

  /** {@link #list}, with the damaged definitions as damaged entries. */
  public Listing<StoredDefinition> listing() {
    return Listing.decode(
        master.query(Query.prefix(TokenLayout.DEFINITIONS)), DefinitionStore::decode);
  }

  /**
   * The stored definition a {@code /definition/<wf>} token holds.
   *
   * @throws DamagedDefinitionException if it does not parse or its text does not match its version
   */
  public static StoredDefinition decode(Token token) {
    DefinitionData data;
    try {
      data = Json.read(token, DefinitionData.class);
    } catch (DamagedTokenException e) {
      throw new DamagedDefinitionException(damage(token, e.damage().reason()));
    }
    String hash = data.yaml == null ? null : version(data.yaml);
    if (hash == null || !hash.equals(data.version)) {
      throw new DamagedDefinitionException(
          damage(
              token,
              "its text does not match its version "
                  + data.version
                  + " (content hash "
                  + hash
                  + ")"));
    }
    WorkflowDefinition definition;
    try {
      definition = WorkflowParser.parse(token.name(), data.yaml);
    } catch (RuntimeException e) {
      throw new DamagedDefinitionException(
          damage(token, "its text does not parse: " + e.getMessage()));
    }
    return new StoredDefinition(definition, data.version, Instant.ofEpochMilli(data.appliedMillis));
  }

  private static DamagedToken damage(Token token, String reason) {
    return new DamagedToken(token.name(), reason + "; apply its file again to repair it");
  }

  /**
   * Whether the token's stored text hashes to its stored version. A token that does not parse is
   * not intact.
   */
  static boolean intact(Token token) {
    try {
      DefinitionData data = Json.read(token, DefinitionData.class);
      return data.yaml != null && version(data.yaml).equals(data.version);
    } catch (RuntimeException e) {
      return false;
    }
  }

  static String version(String yaml) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(yaml.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}
