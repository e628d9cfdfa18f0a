package dev.flipper.token;

/** Why a token master request failed; the values are the Pinball master's wire values. */
public enum TokenErrorCode {
  /** Anything else, including a store that cannot be reached; the message says what happened. */
  UNKNOWN(0),
  /**
   * A token's version in the request is not the stored one: someone changed it since it was read.
   */
  VERSION_CONFLICT(1),
  /** A token the request names by version does not exist. */
  NOT_FOUND(2),
  /** The request itself is malformed: a missing version, a bad name, a duplicate token. */
  INPUT_ERROR(3);

  private final int wireValue;

  TokenErrorCode(int wireValue) {
    this.wireValue = wireValue;
  }

  /** The value of the Thrift enum {@code ErrorCode}. */
  public int wireValue() {
    return wireValue;
  }

  /** The code for a Thrift value; unknown values become {@link #UNKNOWN}. */
  public static TokenErrorCode fromWireValue(int value) {
    for (TokenErrorCode code : values()) {
      if (code.wireValue == value) {
        return code;
      }
    }
    return UNKNOWN;
  }
}
