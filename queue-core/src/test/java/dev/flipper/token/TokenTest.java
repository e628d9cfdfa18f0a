package dev.flipper.token;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenTest {

  @Test
  void aTokenIsOwnedOnlyWithAnOwnerAndAFutureExpiration() {
    Token token = Token.of("/t", "d");

    assertThat(token.withOwner("w", 101).isOwnedAt(100)).isTrue();
    assertThat(token.withOwner("w", 100).isOwnedAt(100)).isFalse();
    assertThat(token.withOwner("w", 0).isOwnedAt(100)).isFalse();
    assertThat(token.withOwner("", 101).isOwnedAt(100)).isFalse();
    assertThat(token.withOwner(null, 101).isOwnedAt(100)).isFalse();
    assertThat(token.withOwner("w", Long.MAX_VALUE).isOwnedAt(Long.MAX_VALUE - 1)).isTrue();
  }

  @Test
  void toStringShortensLongData() {
    String text = Token.of("/t", "x".repeat(5000)).toString();

    assertThat(text).contains("/t").contains("(5000 chars)").hasSizeLessThan(300);
  }

  @Test
  void upperBoundsEncloseExactlyThePrefixedNames() {
    String bound = TokenNames.upperBound("/a/");

    assertThat("/a/~~~~".compareTo(bound)).isNegative();
    assertThat("/a/".compareTo(bound)).isNegative();
    assertThat("/a0".compareTo(bound)).isPositive();
    assertThat("/b".compareTo(bound)).isPositive();
  }

  @Test
  void wireValuesAreTheOriginals() {
    assertThat(TokenErrorCode.UNKNOWN.wireValue()).isZero();
    assertThat(TokenErrorCode.VERSION_CONFLICT.wireValue()).isEqualTo(1);
    assertThat(TokenErrorCode.NOT_FOUND.wireValue()).isEqualTo(2);
    assertThat(TokenErrorCode.INPUT_ERROR.wireValue()).isEqualTo(3);
    assertThat(TokenErrorCode.fromWireValue(99)).isEqualTo(TokenErrorCode.UNKNOWN);
  }
}
