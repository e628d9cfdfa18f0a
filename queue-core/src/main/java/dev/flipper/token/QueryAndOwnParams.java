package dev.flipper.token;

import java.time.Instant;

/**
 * A claim: the query's highest-priority tokens that nobody owns now (see {@link Token}) get this owner and
 * expiration and a new version, atomically. Immutable.
 *
 * @param owner the new owner; must be non-empty
 * @param expirationTime the lease end in epoch seconds
 * @param query which tokens; its {@code maxTokens} caps the claim (null: all claimable ones)
 */
public record QueryAndOwnParams(String owner, long expirationTime, Query query) {

  public static QueryAndOwnParams of(String owner, Instant leaseEnd, Query query) {
    return new QueryAndOwnParams(owner, leaseEnd.getEpochSecond(), query);
  }
}
