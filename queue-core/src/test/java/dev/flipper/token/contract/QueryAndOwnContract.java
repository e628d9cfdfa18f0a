package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** queryAndOwn: leases, priority order, atomic claims (docs/tokens.md, "Operations"). */
abstract class QueryAndOwnContract extends TokenContractArea {

  List<Token> claim(String owner, Query query) {
    return master().queryAndOwn(new QueryAndOwnParams(owner, nowSeconds() + 600, query));
  }

  @Test
  void ownedTokensAreNeverClaimedAndExpiredLeasesAre() {
    long now = nowSeconds();
    insert(Token.of("/c/owned", "x").withOwner("other", now + 1));
    insert(Token.of("/c/owned-forever", "x").withOwner("other", Long.MAX_VALUE));
    insert(Token.of("/c/expired", "x").withOwner("other", now - 1));
    insert(Token.of("/c/expires-now", "x").withOwner("other", now));
    insert(Token.of("/c/no-owner-but-expiration", "x").withOwner("", now + 100));
    insert(Token.of("/c/null-owner", "x").withOwner(null, now + 100));
    insert(Token.of("/c/blank-owner", "x").withOwner(" ", now + 100)); // not empty: owned
    insert(Token.of("/c/owner-without-expiration", "x").withOwner("other", 0));
    insert(Token.of("/c/free", "x"));

    List<Token> claimed = claim("me", Query.prefix("/c/"));

    assertThat(names(claimed))
        .containsExactlyInAnyOrder(
            "/c/expired",
            "/c/expires-now",
            "/c/no-owner-but-expiration",
            "/c/null-owner",
            "/c/owner-without-expiration",
            "/c/free");
    assertThat(get("/c/owned").owner()).isEqualTo("other");
    assertThat(get("/c/owned-forever").owner()).isEqualTo("other");
    assertThat(claim("again", Query.prefix("/c/"))).isEmpty();
  }

  @Test
  void maxTokensOneTakesTheHighestPriorityThenTheFirstName() {
    insert("/c/low", 1);
    insert("/c/b-high", 5);
    insert("/c/a-high", 5);
    insert(Token.of("/c/owned-higher", "x").withPriority(50).withOwner("other", nowSeconds() + 60));

    assertThat(names(claim("me", Query.top("/c/", 1)))).containsExactly("/c/a-high");
    assertThat(names(claim("me", Query.top("/c/", 1)))).containsExactly("/c/b-high");
    assertThat(names(claim("me", Query.top("/c/", 1)))).containsExactly("/c/low");
    assertThat(claim("me", Query.top("/c/", 1))).isEmpty();
  }

  @Test
  void claimedTokensCarryTheNewLeaseAndVersionAndKeepTheirOtherFields() {
    Token before = insert(Token.of("/c/job", "payload").withPriority(3)).get(0);
    long leaseEnd = nowSeconds() + 1200;

    List<Token> claimed =
        master().queryAndOwn(new QueryAndOwnParams("worker-7", leaseEnd, Query.top("/c/", 5)));

    assertThat(claimed).hasSize(1);
    Token owned = claimed.get(0);
    assertThat(owned.version()).isGreaterThan(before.version());
    assertThat(owned)
        .isEqualTo(before.withOwner("worker-7", leaseEnd).withVersion(owned.version()));
    assertThat(get("/c/job")).isEqualTo(owned);
  }

  @Test
  void claimsComeBackInPriorityOrderAndStopAtMaxTokens() {
    for (int i = 0; i < 6; i++) {
      insert("/c/t" + i, i % 3);
    }

    List<Token> claimed = claim("me", Query.top("/c/", 4));

    assertThat(names(claimed)).containsExactly("/c/t2", "/c/t5", "/c/t1", "/c/t4");
    assertThat(names(claim("me", Query.top("/c/", 0)))).isEmpty();
    assertThat(names(claim("me", Query.prefix("/c/")))).containsExactly("/c/t0", "/c/t3");
  }

  @Test
  void aLeaseEndsAtItsExpirationSecond() {
    insert("/c/job", 0);
    QueryAndOwnParams params =
        QueryAndOwnParams.of("w1", clock().instant().plusSeconds(60), Query.top("/c/", 1));
    assertThat(master().queryAndOwn(params)).hasSize(1);

    clock().advance(Duration.ofSeconds(59));
    assertThat(claim("w2", Query.top("/c/", 1))).isEmpty();

    clock().advance(Duration.ofSeconds(1));
    assertThat(claim("w2", Query.top("/c/", 1))).extracting(Token::owner).containsExactly("w2");
  }

  @Test
  void aClaimOfNothingChangesNothing() {
    Token owned = insert(Token.of("/c/owned", "x").withOwner("other", nowSeconds() + 60)).get(0);
    Token outside = insert("/d/free", 0);

    assertThat(claim("me", Query.prefix("/c/"))).isEmpty();
    assertThat(claim("me", Query.prefix("/nothing/"))).isEmpty();

    assertThat(all()).containsExactly(owned, outside);
  }

  @Test
  void aClaimOnlyTouchesTheClaimedTokens() {
    Token a = insert("/c/a", 2);
    Token b = insert("/c/b", 1);
    Token other = insert("/e/x", 9);

    claim("me", Query.top("/c/", 1));

    assertThat(get("/c/b")).isEqualTo(b);
    assertThat(get("/e/x")).isEqualTo(other);
    assertThat(get("/c/a").version()).isNotEqualTo(a.version());
  }

  @Test
  void aReleasedTokenCanBeClaimedAgain() {
    insert("/c/job", 0);
    Token owned = claim("w1", Query.top("/c/", 1)).get(0);

    master().modify(ModifyParams.updating(owned.withoutOwner()));

    assertThat(claim("w2", Query.top("/c/", 1))).extracting(Token::owner).containsExactly("w2");
  }

  @Test
  void anOwnerIsRequiredAndAMissingQueryClaimsNothing() {
    insert("/c/job", 0);

    assertFails(TokenErrorCode.INPUT_ERROR, () -> claim("", Query.prefix("/c/")), "owner");
    assertFails(TokenErrorCode.INPUT_ERROR, () -> claim(null, Query.prefix("/c/")), "owner");
    assertThat(master().queryAndOwn(new QueryAndOwnParams("me", nowSeconds() + 60, null)))
        .isEmpty();
    assertThat(get("/c/job").owner()).isNull();
  }

  @Test
  void anEmptyPrefixClaimsAcrossAllNames() {
    insert("/a", 1);
    insert("/b/c", 2);

    assertThat(names(claim("me", Query.top("", 10)))).containsExactly("/b/c", "/a");
  }
}
