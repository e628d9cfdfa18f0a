package dev.flipper.config;

/**
 * A value that cannot be used; the message completes a sentence that starts with the key, e.g.
 * "must be an integer, got 'abc'". Internal to the loader.
 */
final class BadValue extends Exception {
  BadValue(String message) {
    super(message, null, false, false);
  }
}
