package dev.flipper.queue.spi;

import dev.flipper.queue.QueueException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A body filter: a Java regular expression searched anywhere in the body decoded as UTF-8 (invalid bytes
 * become U+FFFD). Every backend evaluates it in Java, so it means the same everywhere and never reaches a
 * query string. Immutable and thread-safe.
 */
public final class BodyFilter {
  /** Matches every body. */
  public static final BodyFilter ALL = new BodyFilter(null);

  private final Pattern pattern;

  private BodyFilter(Pattern pattern) {
    this.pattern = pattern;
  }

  /** A filter for the regex, {@link #ALL} for null or empty, or a QueueException naming the syntax error. */
  public static BodyFilter of(String regex) {
    if (regex == null || regex.isEmpty()) {
      return ALL;
    }
    try {
      return new BodyFilter(Pattern.compile(regex, Pattern.DOTALL));
    } catch (PatternSyntaxException e) {
      throw QueueException.invalid("body regex '" + regex + "' is not a valid Java regular expression: "
          + e.getDescription() + " near index " + e.getIndex());
    }
  }

  public boolean matchesAll() {
    return pattern == null;
  }

  public boolean matches(byte[] body) {
    return pattern == null || pattern.matcher(new String(body, StandardCharsets.UTF_8)).find();
  }

  @Override
  public String toString() {
    return pattern == null ? "<all>" : pattern.pattern();
  }

}
