package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Versions: unique, strictly increasing, across restarts and masters (docs/tokens.md, "Versions";
 * Pinball's blessed_version_test).
 */
abstract class VersionContract extends TokenContractArea {

  @Test
  void aThousandSuccessiveVersionsStrictlyIncrease() { // Pinball's blessed_version_test
    Token token = insert("/v", "0");
    List<Long> seen = new ArrayList<>(List.of(token.version()));
    for (int i = 1; i < 1000; i++) {
      token = update(token.withData(Integer.toString(i)));
      seen.add(token.version());
    }

    assertThat(seen).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void versionsAreAtLeastTheMastersClockInMilliseconds() {
    Token token = insert("/v", "x");

    assertThat(token.version()).isGreaterThanOrEqualTo(clock().millis());
  }

  @Test
  void versionsKeepIncreasingWhenTheClockGoesBack() {
    Token before = insert("/v", "x");
    clock().advance(Duration.ofHours(-5));

    Token after = update(before.withData("y"));

    assertThat(after.version()).isGreaterThan(before.version());
  }

  @Test
  void afterARestartEveryTokenIsServedUnchangedAndNewVersionsAreHigher() {
    List<Token> written =
        master()
            .modify(
                new ModifyParams(
                    List.of(
                        new Token(
                            0,
                            "/r/a",
                            "worker",
                            1_900_000_000L,
                            2.25,
                            "{\"x\":\"\u00e9\ud83d\ude80\"}"),
                        new Token(0, "/r/b", null, 0, -1, null),
                        new Token(0, "/r/c", "", 0, 0, "")),
                    List.of()));
    long highest = written.stream().mapToLong(Token::version).max().orElseThrow();
    clock().advance(Duration.ofHours(-1)); // the restarted master's clock is behind

    TokenMaster restarted = fx().restart();

    assertThat(restarted.query(Query.prefix(""))).containsExactlyElementsOf(written);
    Token next =
        restarted.modify(ModifyParams.updating(written.get(0).withData("after restart"))).get(0);
    assertThat(next.version()).isGreaterThan(highest);
  }

  @Test
  void twoMastersOverOneStorageIssueStrictlyIncreasingVersionsBetweenThem() { // issue: several
    // masters
    TokenMaster first = master();
    TokenMaster second = fx().anotherMaster();
    List<Long> versions = new ArrayList<>();
    Token token = first.modify(ModifyParams.updating(Token.of("/m/shared", "0"))).get(0);
    versions.add(token.version());
    for (int i = 1; i <= 20; i++) {
      TokenMaster writer = i % 2 == 0 ? first : second;
      token =
          writer
              .modify(
                  ModifyParams.updating(
                      token.withData(Integer.toString(i)), Token.of("/m/new-" + i, "")))
              .get(0);
      versions.add(token.version());
    }
    writerClaims(first, second, versions);

    assertThat(versions).isSorted().doesNotHaveDuplicates();
    assertThat(second.query(Query.prefix("/m/shared")))
        .containsExactly(first.query(Query.prefix("/m/shared")).get(0));
  }

  private void writerClaims(TokenMaster first, TokenMaster second, List<Long> versions) {
    for (int i = 0; i < 10; i++) {
      TokenMaster claimer = i % 2 == 0 ? second : first;
      List<Token> claimed =
          claimer.queryAndOwn(
              new QueryAndOwnParams("w" + i, nowSeconds() + 60, Query.top("/m/new-", 1)));
      assertThat(claimed).hasSize(1);
      versions.add(claimed.get(0).version());
    }
  }

  @Test
  void aDeleteDoesNotFreeAVersionForReuse() {
    Token a = insert("/v/a", "x");
    master().modify(ModifyParams.deleting(a));

    Token again = insert("/v/a", "x");

    assertThat(again.version()).isGreaterThan(a.version());
  }
}
