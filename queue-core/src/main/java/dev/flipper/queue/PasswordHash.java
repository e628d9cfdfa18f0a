package dev.flipper.queue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The admin password hash that guards deleteQueue: lowercase hex SHA-256 of the UTF-8 password.
 * Generate one with {@code flipper hash-password}.
 */
public final class PasswordHash {
  private PasswordHash() {}

  public static String of(String password) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Constant-time comparison of the password's hash with the expected hash. */
  public static boolean matches(String password, String expectedHash) {
    if (password == null || expectedHash == null || expectedHash.isEmpty()) {
      return false;
    }
    return MessageDigest.isEqual(
        of(password).getBytes(StandardCharsets.US_ASCII),
        expectedHash.toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
  }
}
