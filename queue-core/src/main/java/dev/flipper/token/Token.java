package dev.flipper.token;

import java.time.Instant;

/**
 * A named, versioned unit of workflow state: the Pinball master's token. Immutable.
 *
 * <p>A token is <em>owned</em> at a moment only if its owner is non-empty and its expiration time
 * is non-zero and later than that moment (whole seconds). Only {@link TokenMaster#queryAndOwn}
 * honours ownership; modify and query ignore it.
 *
 * @param version unique id of this token instance, given by the master on every write; {@link
 *     #NO_VERSION} (0) in a request means "none" (an insert). Opaque: compare for equality only,
 *     except that a later write always has a greater version.
 * @param name unique key, hierarchical with '/'; visible ASCII (no spaces), 1 to {@link
 *     TokenNames#MAX_NAME_LENGTH} characters. Never changes: renaming is a delete plus an insert.
 * @param owner who holds the lease; null or empty means nobody
 * @param expirationTime end of the lease in epoch seconds; 0 means none ({@code Long.MAX_VALUE}:
 *     forever)
 * @param priority higher is claimed and listed first; any finite value
 * @param data the application's payload (JSON for Flipper's own token kinds, see docs/tokens.md);
 *     may be null
 */
public record Token(
    long version, String name, String owner, long expirationTime, double priority, String data) {
  /** The version of a token that was never written: an insert. */
  public static final long NO_VERSION = 0;

  /** A new token (no version, no owner, priority 0) to insert. */
  public static Token of(String name, String data) {
    return new Token(NO_VERSION, name, null, 0, 0, data);
  }

  public boolean hasVersion() {
    return version != NO_VERSION;
  }

  public Token withVersion(long newVersion) {
    return new Token(newVersion, name, owner, expirationTime, priority, data);
  }

  /** The same token without a version: writing it inserts. */
  public Token withoutVersion() {
    return withVersion(NO_VERSION);
  }

  public Token withOwner(String newOwner, long newExpirationTime) {
    return new Token(version, name, newOwner, newExpirationTime, priority, data);
  }

  public Token withOwner(String newOwner, Instant expiration) {
    return withOwner(newOwner, expiration.getEpochSecond());
  }

  /** The same token with no owner and no expiration: claimable again. */
  public Token withoutOwner() {
    return withOwner(null, 0);
  }

  public Token withPriority(double newPriority) {
    return new Token(version, name, owner, expirationTime, newPriority, data);
  }

  public Token withData(String newData) {
    return new Token(version, name, owner, expirationTime, priority, newData);
  }

  /** True if the lease is held at {@code epochSecond}; see the class comment. */
  public boolean isOwnedAt(long epochSecond) {
    return isOwned(owner, expirationTime, epochSecond);
  }

  public boolean isOwnedAt(Instant now) {
    return isOwnedAt(now.getEpochSecond());
  }

  /** The ownership rule on raw fields, for stores that test it on rows. */
  public static boolean isOwned(String owner, long expirationTime, long epochSecond) {
    return owner != null && !owner.isEmpty() && expirationTime != 0 && expirationTime > epochSecond;
  }

  /** Data is shortened to 100 characters: tokens end up in logs and messages. */
  @Override
  public String toString() {
    String shownData =
        data == null || data.length() <= 100
            ? data
            : data.substring(0, 100) + "...(" + data.length() + " chars)";
    return "Token[name="
        + name
        + ", version="
        + version
        + ", owner="
        + owner
        + ", expirationTime="
        + expirationTime
        + ", priority="
        + priority
        + ", data="
        + shownData
        + "]";
  }
}
