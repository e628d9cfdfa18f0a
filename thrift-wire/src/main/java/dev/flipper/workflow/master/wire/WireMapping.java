package dev.flipper.workflow.master.wire;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.workflow.master.thrift.ErrorCode;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts between the Thrift structs of master.thrift and the token model, both ways, as the
 * original master did: a version of 0 or unset is "none", an expiration of 0 or unset is "none",
 * unset optional strings are null. Stateless.
 */
public final class WireMapping {

  private WireMapping() {}

  public static Token fromWire(dev.flipper.workflow.master.thrift.Token wire) {
    if (wire == null) {
      return null;
    }
    return new Token(
        wire.isSetVersion() ? wire.getVersion() : Token.NO_VERSION,
        wire.getName(),
        wire.getOwner(),
        wire.isSetExpirationTime() ? wire.getExpirationTime() : 0,
        wire.isSetPriority() ? wire.getPriority() : 0,
        wire.getData());
  }

  public static dev.flipper.workflow.master.thrift.Token toWire(Token token) {
    dev.flipper.workflow.master.thrift.Token wire = new dev.flipper.workflow.master.thrift.Token();
    if (token.hasVersion()) {
      wire.setVersion(token.version());
    }
    wire.setName(token.name());
    if (token.owner() != null) {
      wire.setOwner(token.owner());
    }
    if (token.expirationTime() != 0) {
      wire.setExpirationTime(token.expirationTime());
    }
    wire.setPriority(token.priority());
    if (token.data() != null) {
      wire.setData(token.data());
    }
    return wire;
  }

  public static List<Token> fromWire(List<dev.flipper.workflow.master.thrift.Token> wire) {
    if (wire == null) {
      return List.of();
    }
    List<Token> tokens = new ArrayList<>(wire.size());
    wire.forEach(t -> tokens.add(fromWire(t)));
    return tokens;
  }

  public static List<dev.flipper.workflow.master.thrift.Token> toWire(List<Token> tokens) {
    List<dev.flipper.workflow.master.thrift.Token> wire = new ArrayList<>(tokens.size());
    tokens.forEach(t -> wire.add(toWire(t)));
    return wire;
  }

  public static Query fromWire(dev.flipper.workflow.master.thrift.Query wire) {
    if (wire == null) {
      return null;
    }
    return new Query(wire.getNamePrefix(), wire.isSetMaxTokens() ? wire.getMaxTokens() : null);
  }

  public static dev.flipper.workflow.master.thrift.Query toWire(Query query) {
    dev.flipper.workflow.master.thrift.Query wire = new dev.flipper.workflow.master.thrift.Query();
    wire.setNamePrefix(query.namePrefix());
    if (query.maxTokens() != null) {
      wire.setMaxTokens(query.maxTokens());
    }
    return wire;
  }

  public static ModifyParams fromWire(dev.flipper.workflow.master.thrift.ModifyRequest wire) {
    return new ModifyParams(fromWire(wire.getUpdates()), fromWire(wire.getDeletes()));
  }

  /** An unset waitTimeMillis (every Pinball client) is no wait. */
  public static QueryAndOwnParams fromWire(
      dev.flipper.workflow.master.thrift.QueryAndOwnRequest wire) {
    return new QueryAndOwnParams(
        wire.getOwner(),
        wire.getExpirationTime(),
        fromWire(wire.getQuery()),
        wire.isSetWaitTimeMillis() ? Duration.ofMillis(wire.getWaitTimeMillis()) : Duration.ZERO);
  }

  /**
   * Sets waitTimeMillis only for a wait, rounded up to whole milliseconds, so a claim without one
   * is Pinball's.
   */
  public static dev.flipper.workflow.master.thrift.QueryAndOwnRequest toWire(
      QueryAndOwnParams params) {
    dev.flipper.workflow.master.thrift.QueryAndOwnRequest wire =
        new dev.flipper.workflow.master.thrift.QueryAndOwnRequest();
    if (params.owner() != null) {
      wire.setOwner(params.owner());
    }
    wire.setExpirationTime(params.expirationTime());
    if (params.query() != null) {
      wire.setQuery(toWire(params.query()));
    }
    if (!params
        .waitTime()
        .isZero()) { // negative goes through: the master refuses it with INPUT_ERROR
      wire.setWaitTimeMillis(waitMillis(params.waitTime()));
    }
    return wire;
  }

  /** A wait in milliseconds, rounded up so that a positive wait stays positive; saturates. */
  public static long waitMillis(Duration wait) {
    try {
      long millis = wait.toMillis();
      return wait.minusMillis(millis).isZero() ? millis : millis + (wait.isNegative() ? 0 : 1);
    } catch (ArithmeticException tooLong) {
      return wait.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  public static TokenMasterException toWire(TokenException e) {
    return new TokenMasterException(
        ErrorCode.findByValue(e.errorCode().wireValue()), e.getMessage());
  }

  public static TokenException fromWire(TokenMasterException e) {
    TokenErrorCode code =
        e.getErrorCode() == null
            ? TokenErrorCode.UNKNOWN
            : TokenErrorCode.fromWireValue(e.getErrorCode().getValue());
    return new TokenException(
        code, e.getErrorMessage() == null ? "the master gave no message" : e.getErrorMessage());
  }
}
