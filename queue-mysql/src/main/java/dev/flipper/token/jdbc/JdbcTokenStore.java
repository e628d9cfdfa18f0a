package dev.flipper.token.jdbc;

import static dev.flipper.token.jdbc.internal.TokenRows.CHUNK;
import static dev.flipper.token.jdbc.internal.TokenRows.COLUMNS;
import static dev.flipper.token.jdbc.internal.TokenSchema.ACTIVE;
import static dev.flipper.token.jdbc.internal.TokenSchema.ARCHIVED;
import static dev.flipper.token.jdbc.internal.TokenSchema.VERSIONS;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.jdbc.Dialect;
import dev.flipper.jdbc.JdbcUrl;
import dev.flipper.jdbc.internal.Database;
import dev.flipper.jdbc.internal.SqlFailure;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenNames;
import dev.flipper.token.jdbc.internal.GroupCounter;
import dev.flipper.token.jdbc.internal.RunHistorySql;
import dev.flipper.token.jdbc.internal.TokenRows;
import dev.flipper.token.jdbc.internal.TokenSchema;
import dev.flipper.token.jdbc.internal.WriterTurns;
import dev.flipper.token.spi.TokenChecks;
import dev.flipper.token.spi.TokenStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tokens in MySQL 8, MariaDB 10.6+ or H2 (MySQL mode): the durable store of the token master. Holds
 * nothing in memory, so any number of masters over one database act as one. Thread-safe.
 *
 * <p>How each primitive stays atomic and cheap (see docs/tokens.md for the reasoning):
 *
 * <ul>
 *   <li>modify and archive lock the named rows ({@code SELECT ... FOR UPDATE}, in name order, so
 *       two requests never wait on each other in a cycle), check versions, then write;
 *   <li>new versions come from the single row of {@code flipper_token_versions}, updated in the
 *       same transaction as the tokens ({@code last = GREATEST(last + n, now)}). Its row lock
 *       orders all writers, so versions increase in commit order across masters and survive
 *       restarts; it is taken last, after every token lock, to hold it briefly;
 *   <li>queryAndOwn reads candidates without locks (one index range over the prefix, ordered by
 *       priority), then locks only those it will claim, by primary key, with {@code FOR UPDATE SKIP
 *       LOCKED} and the ownership test re-checked under the lock. Nothing claimable: no transaction
 *       writes anything.
 * </ul>
 */
public final class JdbcTokenStore implements TokenStore {
  private static final Logger log = LoggerFactory.getLogger(JdbcTokenStore.class);
  private static final AtomicInteger POOLS = new AtomicInteger();

  /** Claim and top-k order. */
  private static final Comparator<Token> PRIORITY_ORDER =
      Comparator.comparingDouble(Token::priority).reversed().thenComparing(Token::name);

  private static final String RANGE = " WHERE name >= ? AND name < ?";

  /** Whole-prefix queries answered by one statement (two parameters each). */
  private static final int PREFIXES_PER_STATEMENT = 100;

  /** Not owned at ? (epoch seconds): leased_until is generated, see TokenSchema. */
  private static final String CLAIMABLE = "leased_until <= ?";

  private final Database db;

  /**
   * Taken for each writing transaction where the dialect needs it ({@link
   * Dialect#writersTakeTurns()}), else null.
   */
  private final WriterTurns writerTurns;

  private final AtomicBoolean closed = new AtomicBoolean();

  private JdbcTokenStore(Database db, WriterTurns writerTurns) {
    this.db = db;
    this.writerTurns = writerTurns;
  }

  /**
   * Opens the store and brings the schema up to date. Fails with IllegalStateException if the
   * database cannot be reached or migrated, or (H2) if another process writes to the same database.
   */
  public static JdbcTokenStore open(JdbcTokenStoreConfig config) {
    String maskedUrl = JdbcUrl.masked(config.url());
    WriterTurns turns =
        Dialect.forUrl(config.url()).writersTakeTurns() ? WriterTurns.of(config.url()) : null;
    Database db = null;
    try {
      db =
          new Database(
              new Database.Settings(
                  "flipper-tokens-" + POOLS.incrementAndGet(),
                  config.url(),
                  config.user(),
                  config.password(),
                  config.poolSize(),
                  config.connectTimeout()),
              failure -> toTokenException(maskedUrl, failure));
      java.util.Optional<SQLException> permanent = db.permanentOpenFailure();
      if (permanent.isPresent()) { // else the pool waits out its time-out first (30 s for H2)
        throw new IllegalArgumentException(
            "retrying will not help: "
                + permanent.get().getMessage()
                + "; check the URL, user and password",
            permanent.get());
      }
      int applied = TokenSchema.migrator(db.dialect()).migrate(db.dataSource());
      log.info(
          "token store open on {} ({}, pool {}, {} schema migration(s) applied)",
          maskedUrl,
          db.dialect().name(),
          config.poolSize(),
          applied);
      return new JdbcTokenStore(db, turns);
    } catch (SQLException | RuntimeException e) {
      if (db != null) {
        db.close();
      }
      if (turns != null) {
        turns.close(); // else the lock file stays held by this process
      }
      String why =
          e instanceof SQLException sql && db != null
              ? db.failure("open", sql).getMessage()
              : e.getMessage();
      throw new IllegalStateException(
          "cannot open the token store at " + maskedUrl + ": " + why, e);
    }
  }

  /**
   * All failures are UNKNOWN, the only code the master's protocol has for them; the message tells a
   * busy pool (retry later), an unreachable database and a failed commit (outcome unknown) apart.
   */
  private static TokenException toTokenException(String maskedUrl, SqlFailure failure) {
    String message =
        switch (failure.kind()) {
          case BUSY ->
              "token store "
                  + maskedUrl
                  + " is busy, "
                  + failure.operation()
                  + " not done (nothing was"
                  + " changed): "
                  + failure.reason()
                  + ". Retry later, or raise the token store's poolSize if this persists";
          case UNREACHABLE ->
              "token store "
                  + maskedUrl
                  + " cannot be reached for "
                  + failure.operation()
                  + (failure.outcomeUnknown() ? "" : " (nothing was changed)")
                  + ": "
                  + failure.reason();
          case FAILED ->
              "token store "
                  + maskedUrl
                  + " failed during "
                  + failure.operation()
                  + (failure.outcomeUnknown() ? "" : " (nothing was changed)")
                  + ": "
                  + failure.reason();
        };
    if (failure.outcomeUnknown()) {
      message +=
          "; the commit failed, so its outcome is unknown: read the tokens again before retrying";
    }
    return new TokenException(TokenErrorCode.UNKNOWN, message, failure.cause());
  }

  /**
   * Like {@link Database#inTransaction}, for work that writes tokens: where the dialect needs it,
   * only one such transaction per database runs at a time.
   */
  private <T> T inWriteTransaction(String operation, Database.SqlWork<T> work) {
    return writerTurns == null
        ? db.inTransaction(operation, work)
        : writerTurns.run(() -> db.inTransaction(operation, work));
  }

  @Override
  public List<Token> modify(List<Token> updates, List<Token> deletes, long nowMillis) {
    List<String> names = new ArrayList<>();
    updates.forEach(t -> names.add(t.name()));
    deletes.forEach(t -> names.add(t.name()));
    return inWriteTransaction(
        "modify of " + describe(names),
        c -> {
          Map<String, Long> stored = lockVersions(c, names);
          TokenChecks.checkModify(updates, deletes, stored);
          deleteRows(c, deletes);
          if (updates.isEmpty()) {
            return List.of();
          }
          long version = allocateVersions(c, updates.size(), nowMillis);
          List<Token> written = new ArrayList<>(updates.size());
          List<Token> existing = new ArrayList<>();
          List<Token> inserts = new ArrayList<>();
          for (Token update : updates) {
            Token token = update.withVersion(version++);
            written.add(token);
            (stored.containsKey(token.name()) ? existing : inserts).add(token);
          }
          if (updateRows(c, existing, stored).size() < existing.size()) {
            throw changedMeanwhile(existing);
          }
          insertRows(c, inserts);
          return written;
        });
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    String operation =
        queries.size() == 1
            ? "query of '" + queries.get(0).namePrefix() + "'"
            : queries.size() + " queries";
    return db.inTransaction(
        operation,
        c -> {
          if (queries.size() > 1) {
            // One snapshot for all queries of the request (InnoDB and H2 read it from the first
            // statement on).
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
          }
          List<List<Token>> answers = new ArrayList<>(queries.size());
          List<Integer> byPrefix =
              new ArrayList<>(); // whole prefixes: read together, see readPrefixes
          for (int i = 0; i < queries.size(); i++) {
            Query query = queries.get(i);
            if (query.maxTokens() == null && !query.namePrefix().isEmpty()) {
              answers.add(null);
              byPrefix.add(i);
              continue;
            }
            String sql =
                "SELECT "
                    + COLUMNS
                    + " FROM "
                    + ACTIVE
                    + (query.namePrefix().isEmpty() ? "" : RANGE)
                    + (query.maxTokens() == null
                        ? " ORDER BY name"
                        : " ORDER BY priority DESC, name LIMIT ?");
            try (PreparedStatement ps = c.prepareStatement(sql)) {
              int index = bindRange(ps, 1, query.namePrefix());
              if (query.maxTokens() != null) {
                ps.setInt(index, query.maxTokens());
              }
              answers.add(readTokens(ps));
            }
          }
          for (int from = 0; from < byPrefix.size(); from += PREFIXES_PER_STATEMENT) {
            readPrefixes(
                c,
                queries,
                byPrefix.subList(from, Math.min(byPrefix.size(), from + PREFIXES_PER_STATEMENT)),
                answers);
          }
          return answers;
        });
  }

  /**
   * Answers the whole-prefix queries at {@code indexes} with one statement, a UNION ALL of their
   * ranges tagged by index: a page that reads the records of a thousand instances costs a few round
   * trips instead of a thousand.
   */
  private static void readPrefixes(
      Connection c, List<Query> queries, List<Integer> indexes, List<List<Token>> answers)
      throws SQLException {
    StringBuilder sql = new StringBuilder();
    for (int index : indexes) {
      sql.append(sql.length() == 0 ? "" : " UNION ALL ")
          .append("SELECT ")
          .append(COLUMNS)
          .append(", ")
          .append(index)
          .append(" FROM ")
          .append(ACTIVE)
          .append(RANGE);
    }
    for (int index : indexes) {
      answers.set(index, new ArrayList<>());
    }
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      int at = 1;
      for (int index : indexes) {
        at = bindRange(ps, at, queries.get(index).namePrefix());
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          answers.get(rs.getInt(7)).add(TokenRows.read(rs));
        }
      }
    }
    for (int index : indexes) {
      answers.get(index).sort(Comparator.comparing(Token::name)); // a UNION has no order of its own
    }
  }

  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params, long nowMillis) {
    String prefix = params.query().namePrefix();
    Integer max = params.query().maxTokens();
    int wanted = max == null ? Integer.MAX_VALUE : max;
    long nowSeconds = Math.floorDiv(nowMillis, 1000);
    String operation = "queryAndOwn of '" + prefix + "' by '" + params.owner() + "'";
    // Phase 1, no locks: the best candidates, with some spare for those other masters take
    // meanwhile.
    List<String> candidates =
        db.inTransaction(
            operation, c -> candidates(c, prefix, nowSeconds, max == null ? null : withSpare(max)));
    if (candidates.isEmpty()) {
      return List.of();
    }
    // Phase 2: lock what is still claimable, best first, never waiting on a token another call
    // holds.
    return inWriteTransaction(
        operation,
        c -> {
          List<Token> locked = new ArrayList<>();
          for (int next = 0; locked.size() < wanted && next < candidates.size(); ) {
            int take = Math.min(Math.min(wanted - locked.size(), CHUNK), candidates.size() - next);
            locked.addAll(lockClaimable(c, candidates.subList(next, next + take), nowSeconds));
            next += take;
          }
          if (locked.isEmpty()) {
            return List.of(); // commit of a transaction that wrote nothing: just releases the locks
          }
          locked.sort(PRIORITY_ORDER);
          long version = allocateVersions(c, locked.size(), nowMillis);
          List<Token> claimed = new ArrayList<>(locked.size());
          Map<String, Long> read = new HashMap<>();
          for (Token token : locked) {
            claimed.add(
                token.withOwner(params.owner(), params.expirationTime()).withVersion(version++));
            read.put(token.name(), token.version());
          }
          return updateRows(c, claimed, read); // a token changed since it was read is not claimed
        });
  }

  /**
   * Candidates to read for a claim of {@code max}: twice as many (at least 8 spare), saturating at
   * int range.
   */
  private static int withSpare(int max) {
    return (int) Math.min(Integer.MAX_VALUE, (long) max + Math.max(max, 8));
  }

  /**
   * With a one-character suffix (the usual {@code /}), skips from group to group through the name
   * index ({@link GroupCounter}); otherwise H2 groups in SQL and MariaDB reads the names through
   * the narrow index and counts them here (its grouping in SQL, with a temporary table and a sort,
   * took five times as long as reading the names).
   */
  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    boolean bySuffix = groupSuffix != null && !groupSuffix.isEmpty();
    if (GroupCounter.handles(groupSuffix)) {
      return db.inTransaction(
          "group of '" + namePrefix + "'",
          c -> {
            c.setTransactionIsolation(
                Connection.TRANSACTION_REPEATABLE_READ); // the counts of one snapshot
            return new GroupCounter(c, db.dialect().tokenNames(), namePrefix, groupSuffix).count();
          });
    }
    if (db.dialect().inProcess()) {
      return groupInSql(namePrefix, groupSuffix, bySuffix);
    }
    String sql = "SELECT name FROM " + db.dialect().tokenNames() + RANGE;
    return db.inTransaction(
        "group of '" + namePrefix + "'",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            bindRange(ps, 1, namePrefix);
            SortedMap<String, Integer> counts = new TreeMap<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                String name = rs.getString(1);
                int end = bySuffix ? name.indexOf(groupSuffix, namePrefix.length()) : -1;
                counts.merge(end < 0 ? name : name.substring(0, end), 1, Integer::sum);
              }
            }
            return counts;
          }
        });
  }

  private SortedMap<String, Integer> groupInSql(
      String namePrefix, String groupSuffix, boolean bySuffix) {
    // LOCATE is 1-based: the suffix is searched from the first character after the prefix.
    String sql =
        bySuffix
            ? "SELECT grp, COUNT(*) FROM (SELECT CASE WHEN LOCATE(?, name, ?) = 0 THEN name"
                + " ELSE SUBSTRING(name, 1, LOCATE(?, name, ?) - 1) END AS grp FROM "
                + ACTIVE
                + RANGE
                + ") g GROUP BY grp"
            : "SELECT name, 1 FROM " + ACTIVE + RANGE;
    return db.inTransaction(
        "group of '" + namePrefix + "'",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            int index = 1;
            if (bySuffix) {
              ps.setString(index++, groupSuffix);
              ps.setInt(index++, namePrefix.length() + 1);
              ps.setString(index++, groupSuffix);
              ps.setInt(index++, namePrefix.length() + 1);
            }
            bindRange(ps, index, namePrefix);
            SortedMap<String, Integer> counts = new TreeMap<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                counts.merge(rs.getString(1), rs.getInt(2), Integer::sum);
              }
            }
            return counts;
          }
        });
  }

  @Override
  public void archive(List<Token> tokens, long nowMillis) {
    inWriteTransaction(
        "archive of " + describe(names(tokens)),
        c -> {
          moveToArchive(c, tokens, nowMillis);
          return null;
        });
  }

  /** Locks the tokens, checks their versions and moves them to the archived table. */
  private static void moveToArchive(Connection c, List<Token> tokens, long nowMillis)
      throws SQLException {
    List<String> names = names(tokens);
    Map<String, Long> stored = lockVersions(c, names);
    TokenChecks.checkArchive(tokens, stored);
    for (List<String> chunk : chunks(new ArrayList<>(new TreeSet<>(names)))) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO "
                  + ARCHIVED
                  + " ("
                  + COLUMNS
                  + ", archived_at)"
                  + " SELECT "
                  + COLUMNS
                  + ", ? FROM "
                  + ACTIVE
                  + " WHERE name IN ("
                  + TokenRows.placeholders(chunk.size())
                  + ")")) {
        ps.setLong(1, nowMillis);
        TokenRows.bindNames(ps, 2, chunk);
        ps.executeUpdate();
      }
    }
    deleteRows(c, tokens);
  }

  @Override
  public List<Token> queryArchived(String namePrefix) {
    String sql =
        "SELECT "
            + COLUMNS
            + " FROM "
            + ARCHIVED
            + (namePrefix.isEmpty() ? "" : RANGE)
            + " ORDER BY name, version";
    return db.inTransaction(
        "archived query of '" + namePrefix + "'",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            bindRange(ps, 1, namePrefix);
            return readTokens(ps);
          }
        });
  }

  @Override
  public int deleteArchived(String namePrefix) {
    if (namePrefix == null || namePrefix.isEmpty()) {
      throw TokenException.inputError("deleteArchived needs a non-empty name prefix");
    }
    if (!TokenNames.canOccurInName(namePrefix)) {
      return 0;
    }
    int total = 0;
    while (true) { // in slices, so a huge cleanup does not hold one enormous transaction
      int deleted =
          db.inTransaction(
              "deletion of archived tokens under '" + namePrefix + "'",
              c -> {
                try (PreparedStatement ps =
                    c.prepareStatement("DELETE FROM " + ARCHIVED + RANGE + " LIMIT " + CHUNK)) {
                  bindRange(ps, 1, namePrefix);
                  return ps.executeUpdate();
                }
              });
      total += deleted;
      if (deleted < CHUNK) {
        return total;
      }
    }
  }

  /**
   * The tokens move and the instance's history is replaced in one transaction: a failed check
   * (version, missing token) or a failure of either part rolls back both.
   */
  @Override
  public void archive(List<Token> tokens, RunArchive run, long nowMillis) {
    RunHistorySql.check(run);
    inWriteTransaction(
        "archive of " + describe(names(tokens)) + " with run " + runName(run),
        c -> {
          moveToArchive(c, tokens, nowMillis);
          RunHistorySql.replace(c, run);
          return null;
        });
  }

  @Override
  public RunPage queryRuns(RunQuery query) {
    return db.inTransaction(
        "run history query" + (query.workflow() == null ? "" : " of '" + query.workflow() + "'"),
        c -> {
          c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ); // page and total agree
          return RunHistorySql.queryRuns(c, db.dialect(), query);
        });
  }

  @Override
  public ExecutionPage queryExecutions(ExecutionQuery query) {
    return db.inTransaction(
        "execution history query of '" + query.workflow() + "'",
        c -> {
          c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
          return RunHistorySql.queryExecutions(c, query);
        });
  }

  @Override
  public int deleteRun(String workflow, String instance) {
    return inWriteTransaction(
        "deletion of run '" + workflow + "/" + instance + "'",
        c -> RunHistorySql.delete(c, workflow, instance));
  }

  private static String runName(RunArchive run) {
    return "'" + run.run().workflow() + "/" + run.run().instance() + "'";
  }

  /** The database, for tests. */
  Database database() {
    return db;
  }

  /** The highest version issued so far (for tests and operators). */
  public long lastVersion() {
    return db.inTransaction(
        "read of the version counter",
        c -> {
          try (PreparedStatement ps =
                  c.prepareStatement("SELECT last_version FROM " + VERSIONS + " WHERE id = 1");
              ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
              throw missingVersionRow();
            }
            return rs.getLong(1);
          }
        });
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      db.close();
      if (writerTurns != null) {
        writerTurns.close();
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Statements

  /** Locks the existing rows among the names, in name order; returns their versions. */
  private static Map<String, Long> lockVersions(Connection c, List<String> names)
      throws SQLException {
    Map<String, Long> versions = new HashMap<>();
    for (List<String> chunk : chunks(new ArrayList<>(new TreeSet<>(names)))) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT name, version FROM "
                  + ACTIVE
                  + " WHERE name IN ("
                  + TokenRows.placeholders(chunk.size())
                  + ") ORDER BY name FOR UPDATE")) {
        TokenRows.bindNames(ps, 1, chunk);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            versions.put(rs.getString(1), rs.getLong(2));
          }
        }
      }
    }
    return versions;
  }

  /**
   * Reserves {@code n} versions: above every version issued before and at least {@code nowMillis}.
   * The row lock is held until commit, which is what makes versions increase in commit order.
   */
  private static long allocateVersions(Connection c, int n, long nowMillis) throws SQLException {
    String update =
        "UPDATE " + VERSIONS + " SET last_version = GREATEST(last_version + ?, ?) WHERE id = 1";
    try (PreparedStatement ps = c.prepareStatement(update)) {
      ps.setLong(1, n);
      ps.setLong(2, nowMillis);
      if (ps.executeUpdate() != 1) {
        throw missingVersionRow();
      }
    }
    try (PreparedStatement ps =
            c.prepareStatement("SELECT last_version FROM " + VERSIONS + " WHERE id = 1");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1) - n + 1;
    }
  }

  private static TokenException missingVersionRow() {
    return new TokenException(
        TokenErrorCode.UNKNOWN,
        "the version row (id = 1) of "
            + VERSIONS
            + " is missing; it must never be deleted. Restore it with a last_version above every token's version");
  }

  private static List<String> candidates(
      Connection c, String prefix, long nowSeconds, Integer limit) throws SQLException {
    String sql =
        "SELECT name FROM "
            + ACTIVE
            + (prefix.isEmpty() ? " WHERE " : RANGE + " AND ")
            + CLAIMABLE
            + " ORDER BY priority DESC, name"
            + (limit == null ? "" : " LIMIT ?");
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int index = bindRange(ps, 1, prefix);
      ps.setLong(index++, nowSeconds);
      if (limit != null) {
        ps.setInt(index, limit);
      }
      List<String> names = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
      return names;
    }
  }

  private static List<Token> lockClaimable(Connection c, List<String> names, long nowSeconds)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + COLUMNS
                + " FROM "
                + ACTIVE
                + " WHERE name IN ("
                + TokenRows.placeholders(names.size())
                + ") AND "
                + CLAIMABLE
                + " FOR UPDATE SKIP LOCKED")) {
      int index = TokenRows.bindNames(ps, 1, names);
      ps.setLong(index, nowSeconds);
      List<Token> locked = new ArrayList<>();
      for (Token token : readTokens(ps)) {
        if (!token.isOwnedAt(nowSeconds)) { // the SQL test, once more in Java's words
          locked.add(token);
        }
      }
      return locked;
    }
  }

  /**
   * Writes the tokens over rows this transaction locked, each only if the row still has the version
   * read under the lock ({@code expected}), and returns the tokens written. The version condition
   * makes a stale locking read harmless: the write is refused instead of overwriting a change
   * committed meanwhile.
   */
  private static List<Token> updateRows(
      Connection c, List<Token> tokens, Map<String, Long> expected) throws SQLException {
    if (tokens.isEmpty()) {
      return tokens;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE "
                + ACTIVE
                + " SET owner = ?, expiration_time = ?, priority = ?, data = ?, version = ? WHERE name = ? AND version = ?")) {
      for (Token token : tokens) {
        TokenRows.bindFields(ps, 1, token);
        ps.setLong(5, token.version());
        ps.setString(6, token.name());
        ps.setLong(7, expected.get(token.name()));
        ps.addBatch();
      }
      return written(tokens, ps.executeBatch());
    }
  }

  private static void insertRows(Connection c, List<Token> tokens) throws SQLException {
    if (tokens.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + ACTIVE
                + " (name, version, owner,"
                + " expiration_time, priority, data) VALUES (?, ?, ?, ?, ?, ?)")) {
      for (Token token : tokens) {
        ps.setString(1, token.name());
        ps.setLong(2, token.version());
        TokenRows.bindFields(ps, 3, token);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * Deletes the tokens' rows, each only at the version the request names; a row changed meanwhile
   * conflicts.
   */
  private static void deleteRows(Connection c, List<Token> tokens) throws SQLException {
    if (tokens.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM " + ACTIVE + " WHERE name = ? AND version = ?")) {
      for (Token token : tokens) {
        ps.setString(1, token.name());
        ps.setLong(2, token.version());
        ps.addBatch();
      }
      if (written(tokens, ps.executeBatch()).size() < tokens.size()) {
        throw changedMeanwhile(tokens);
      }
    }
  }

  /** The tokens whose statement changed a row ({@code SUCCESS_NO_INFO} counts as changed). */
  private static List<Token> written(List<Token> tokens, int[] counts) {
    List<Token> written = new ArrayList<>(tokens.size());
    for (int i = 0; i < tokens.size(); i++) {
      if (counts[i] != 0) {
        written.add(tokens.get(i));
      }
    }
    return written;
  }

  private static TokenException changedMeanwhile(List<Token> tokens) {
    return TokenException.versionConflict(
        "token "
            + describe(names(tokens))
            + " changed while this request ran; read it again and retry");
  }

  /** Binds the prefix range unless the prefix is empty; returns the next index. */
  private static int bindRange(PreparedStatement ps, int index, String prefix) throws SQLException {
    if (prefix.isEmpty()) {
      return index;
    }
    ps.setString(index, prefix);
    ps.setString(index + 1, TokenNames.upperBound(prefix));
    return index + 2;
  }

  private static List<Token> readTokens(PreparedStatement ps) throws SQLException {
    List<Token> tokens = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        tokens.add(TokenRows.read(rs));
      }
    }
    return tokens;
  }

  private static List<String> names(List<Token> tokens) {
    List<String> names = new ArrayList<>(tokens.size());
    tokens.forEach(t -> names.add(t.name()));
    return names;
  }

  private static List<List<String>> chunks(List<String> names) {
    List<List<String>> chunks = new ArrayList<>();
    for (int from = 0; from < names.size(); from += CHUNK) {
      chunks.add(names.subList(from, Math.min(names.size(), from + CHUNK)));
    }
    return chunks;
  }

  private static String describe(List<String> names) {
    if (names.isEmpty()) {
      return "no tokens";
    }
    return names.size() == 1
        ? "'" + names.get(0) + "'"
        : names.size() + " tokens ('" + names.get(0) + "', ...)";
  }
}
