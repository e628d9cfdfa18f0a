package dev.flipper.token;

/**
 * A token master request failed. The {@link #errorCode()} is the Pinball master's; the message
 * names the token and says what was expected. A failed request changed nothing, except for {@link
 * TokenErrorCode#UNKNOWN} errors whose message says the outcome is unknown.
 */
public class TokenException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final TokenErrorCode errorCode;

  public TokenException(TokenErrorCode errorCode, String message) {
    super(message);
    this.errorCode = errorCode;
  }

  public TokenException(TokenErrorCode errorCode, String message, Throwable cause) {
    super(message, cause);
    this.errorCode = errorCode;
  }

  public TokenErrorCode errorCode() {
    return errorCode;
  }

  public static TokenException inputError(String message) {
    return new TokenException(TokenErrorCode.INPUT_ERROR, message);
  }

  public static TokenException notFound(String message) {
    return new TokenException(TokenErrorCode.NOT_FOUND, message);
  }

  public static TokenException versionConflict(String message) {
    return new TokenException(TokenErrorCode.VERSION_CONFLICT, message);
  }

  @Override
  public String toString() {
    return "TokenException(" + errorCode + "): " + getMessage();
  }
}
