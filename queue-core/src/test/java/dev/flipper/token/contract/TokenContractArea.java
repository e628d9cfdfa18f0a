package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.testing.MutableClock;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import java.util.List;
import java.util.stream.Collectors;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Shared helpers of the contract areas; the area's nested class in the suite supplies the fixture.
 */
abstract class TokenContractArea {

  abstract TokenFixture fx();

  TokenMaster master() {
    return fx().master();
  }

  MutableClock clock() {
    return fx().clock;
  }

  long nowSeconds() {
    return clock().instant().getEpochSecond();
  }

  /** Inserts the tokens in one modify and returns them as written. */
  List<Token> insert(Token... tokens) {
    return master().modify(ModifyParams.updating(tokens));
  }

  Token insert(String name, String data) {
    return insert(Token.of(name, data)).get(0);
  }

  Token insert(String name, double priority) {
    return insert(Token.of(name, "data of " + name).withPriority(priority)).get(0);
  }

  Token update(Token token) {
    return master().modify(ModifyParams.updating(token)).get(0);
  }

  /** Every active token, in name order. */
  List<Token> all() {
    return master().query(Query.prefix(""));
  }

  List<Token> under(String prefix) {
    return master().query(Query.prefix(prefix));
  }

  /** The active token of that name, or null. */
  Token get(String name) {
    return under(name).stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
  }

  static List<String> names(List<Token> tokens) {
    return tokens.stream().map(Token::name).collect(Collectors.toList());
  }

  static List<Long> versions(List<Token> tokens) {
    return tokens.stream().map(Token::version).collect(Collectors.toList());
  }

  /**
   * Asserts the call fails with the code and a message containing every fragment; returns the
   * error.
   */
  static TokenException assertFails(
      TokenErrorCode code, ThrowingCallable call, String... messageFragments) {
    TokenException e = catchThrowableOfType(TokenException.class, call);
    assertThat(e).as("expected a TokenException(%s)", code).isNotNull();
    assertThat(e.errorCode()).as("error code of: %s", e.getMessage()).isEqualTo(code);
    for (String fragment : messageFragments) {
      assertThat(e.getMessage()).contains(fragment);
    }
    return e;
  }
}
