package dev.flipper.token;

import java.time.Duration;
import java.time.Instant;

/**
 * A claim: the query's highest-priority tokens that nobody owns now (see {@link Token}) get this
 * owner and expiration and a new version, atomically. Immutable.
 *
 * <p>With a {@code waitTime}, a claim that finds nothing claimable waits for something to become
 * claimable (a long-poll): it returns as soon as it has claimed at least one token, or empty when
 * the wait ends. The master shortens a wait longer than its limit (30 s by default, {@link
 * TokenService.Builder#maxWaitTime}) and may end a wait early, for example when it shuts down, so
 * callers simply call again. See docs/tokens.md.
 *
 * @param owner the new owner; must be non-empty
 * @param expirationTime the lease end in epoch seconds
 * @param query which tokens; its {@code maxTokens} caps the claim (null: all claimable ones)
 * @param waitTime how long to wait when nothing is claimable; zero (or null): answer at once, as
 *     Pinball's master
 */
public record QueryAndOwnParams(String owner, long expirationTime, Query query, Duration waitTime) {

  public QueryAndOwnParams {
    waitTime = waitTime == null ? Duration.ZERO : waitTime;
  }

  /** A claim that answers at once. */
  public QueryAndOwnParams(String owner, long expirationTime, Query query) {
    this(owner, expirationTime, query, Duration.ZERO);
  }

  public static QueryAndOwnParams of(String owner, Instant leaseEnd, Query query) {
    return new QueryAndOwnParams(owner, leaseEnd.getEpochSecond(), query);
  }

  /** This claim, waiting up to {@code newWaitTime} for something claimable when nothing is. */
  public QueryAndOwnParams withWaitTime(Duration newWaitTime) {
    return new QueryAndOwnParams(owner, expirationTime, query, newWaitTime);
  }

  /** True if the claim may wait: a positive wait time. */
  public boolean waits() {
    return !waitTime.isZero() && !waitTime.isNegative();
  }
}
