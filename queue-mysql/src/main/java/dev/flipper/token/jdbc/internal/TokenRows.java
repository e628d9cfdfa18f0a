package dev.flipper.token.jdbc.internal;

import dev.flipper.token.Token;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * Token rows: the column list, reading a row into a {@link Token} and binding a token's fields. An
 * expiration of 0 ("none") is stored as NULL so rows read naturally in SQL. Stateless.
 */
public final class TokenRows {
  /** The token columns, in the order {@link #read} expects. */
  public static final String COLUMNS = "name, version, owner, expiration_time, priority, data";

  /** Longest IN list per statement. */
  public static final int CHUNK = 500;

  private TokenRows() {}

  public static Token read(ResultSet rs) throws SQLException {
    long expiration = rs.getLong(4);
    return new Token(
        rs.getLong(2),
        rs.getString(1),
        rs.getString(3),
        rs.wasNull() ? 0 : expiration,
        rs.getDouble(5),
        rs.getString(6));
  }

  /** Binds owner, expiration_time, priority and data from {@code index} on. */
  public static void bindFields(PreparedStatement ps, int index, Token token) throws SQLException {
    setNullableString(ps, index, token.owner());
    if (token.expirationTime() == 0) {
      ps.setNull(index + 1, Types.BIGINT);
    } else {
      ps.setLong(index + 1, token.expirationTime());
    }
    ps.setDouble(index + 2, token.priority());
    setNullableString(ps, index + 3, token.data());
  }

  private static void setNullableString(PreparedStatement ps, int index, String value)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.VARCHAR);
    } else {
      ps.setString(index, value);
    }
  }

  /** "?, ?, ?" for an IN list of n. */
  public static String placeholders(int n) {
    return String.join(", ", java.util.Collections.nCopies(n, "?"));
  }

  /** Binds the names from {@code index} on; returns the next index. */
  public static int bindNames(PreparedStatement ps, int index, List<String> names)
      throws SQLException {
    for (String name : names) {
      ps.setString(index++, name);
    }
    return index;
  }
}
