package dev.flipper.queue.spi;

import dev.flipper.queue.QueueException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A body filter: a Java regular expression searched anywhere in the body decoded as UTF-8 (invalid
 * bytes become U+FFFD). Every backend evaluates it in Java, so it means the same everywhere and
 * never reaches a query string.
 *
 * <p>Java's engine backtracks, so an expression like {@code ((a+)+)\2b} can run for hours on a
 * short body. Two budgets bound it: a search may read at most {@link #STEPS_PER_BODY} characters of
 * one body (counted by the text the matcher reads, so it stops inside a runaway search), and all
 * bodies of one call together at most {@link #TIME_PER_CALL} from the first body evaluated. Either
 * failure is a QueueException naming the budget. One instance serves one call (the time budget
 * starts with its first body); thread-safe.
 */
public final class BodyFilter {
  /** Characters one search may read in one body: about 20-50 ms of matching. */
  public static final long STEPS_PER_BODY = 10_000_000L;

  /** Time from the first body evaluated until the call's last one. */
  public static final Duration TIME_PER_CALL = Duration.ofSeconds(10);

  /** Matches every body. */
  public static final BodyFilter ALL = new BodyFilter(null, 0, 0, System::nanoTime);

  /** How often (in characters read) a search looks at the clock. */
  private static final int CLOCK_EVERY_STEPS = 1 << 14;

  private static final long NOT_STARTED = Long.MIN_VALUE;

  private final Pattern pattern;
  private final long stepsPerBody;
  private final long nanosPerCall;
  private final LongSupplier nanoClock;
  private final AtomicLong startedNanos = new AtomicLong(NOT_STARTED);

  private BodyFilter(
      Pattern pattern, long stepsPerBody, long nanosPerCall, LongSupplier nanoClock) {
    this.pattern = pattern;
    this.stepsPerBody = stepsPerBody;
    this.nanosPerCall = nanosPerCall;
    this.nanoClock = nanoClock;
  }

  /**
   * A filter for the regex, {@link #ALL} for null or empty, or a QueueException naming the syntax
   * error.
   */
  public static BodyFilter of(String regex) {
    return of(regex, STEPS_PER_BODY, TIME_PER_CALL, System::nanoTime);
  }

  /** {@link #of(String)} with other budgets and clock (tests). */
  public static BodyFilter of(
      String regex, long stepsPerBody, Duration timePerCall, LongSupplier nanoClock) {
    if (regex == null || regex.isEmpty()) {
      return ALL;
    }
    try {
      return new BodyFilter(
          Pattern.compile(regex, Pattern.DOTALL), stepsPerBody, timePerCall.toNanos(), nanoClock);
    } catch (PatternSyntaxException e) {
      throw QueueException.invalid(
          "body regex '"
              + regex
              + "' is not a valid Java regular expression: "
              + e.getDescription()
              + " near index "
              + e.getIndex());
    }
  }

  public boolean matchesAll() {
    return pattern == null;
  }

  /**
   * Whether the regex is found in the body; a QueueException when this search exceeds the step
   * budget or the call its time budget.
   */
  public boolean matches(byte[] body) {
    if (pattern == null) {
      return true;
    }
    long now = nanoClock.getAsLong();
    startedNanos.compareAndSet(NOT_STARTED, now);
    checkTime(now);
    try {
      return pattern.matcher(new BudgetedText(new String(body, StandardCharsets.UTF_8))).find();
    } catch (StepsExhausted e) {
      throw QueueException.invalid(
          "body regex '"
              + pattern.pattern()
              + "' read more than "
              + stepsPerBody
              + " characters in one job body of "
              + body.length
              + " bytes, the step budget of a body filter: it"
              + " backtracks too much; use an expression without nested repetition or backreferences");
    }
  }

  private void checkTime(long now) {
    if (now - startedNanos.get() > nanosPerCall) {
      throw QueueException.invalid(
          "body regex '"
              + pattern.pattern()
              + "' ran out of the time budget of a"
              + " body-filtered call ("
              + Duration.ofNanos(nanosPerCall).toMillis()
              + " ms for all bodies it reads):"
              + " narrow the call with a priority, a state with fewer jobs or a simpler expression");
    }
  }

  @Override
  public String toString() {
    return pattern == null ? "<all>" : pattern.pattern();
  }

  /** The body as the matcher reads it, counting each character read against the budgets. */
  private final class BudgetedText implements CharSequence {
    private final String text;
    private long steps;

    BudgetedText(String text) {
      this.text = text;
    }

    @Override
    public char charAt(int index) {
      if (++steps > stepsPerBody) {
        throw new StepsExhausted();
      }
      if ((steps & (CLOCK_EVERY_STEPS - 1)) == 0) {
        checkTime(nanoClock.getAsLong());
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.subSequence(start, end);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** Thrown through the matcher when one search used its step budget; no stack trace. */
  private static final class StepsExhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StepsExhausted() {
      super(null, null, false, false);
    }
  }
}
