package dev.flipper.token.spi;

import dev.flipper.history.RunRecord;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link dev.flipper.history.RunQuery#text()} searches in a run, shared by every store so all
 * match the same runs: the run's instance name, its trigger and each parameter as {@code
 * key=value}, lower-cased, joined by a unit separator (U+001F) so that a search never matches
 * across two of them unless it contains that control character itself. Stateless.
 */
public final class RunSearchText {
  /** Between two searched fields; no name, trigger or parameter is expected to hold it. */
  public static final char SEPARATOR = '\u001f';

  private RunSearchText() {}

  /** The lower-cased text a run's search matches against. */
  public static String of(RunRecord run) {
    StringBuilder text =
        new StringBuilder(run.instance()).append(SEPARATOR).append(run.startedBy());
    for (Map.Entry<String, String> param : run.params().entrySet()) {
      text.append(SEPARATOR).append(param.getKey()).append('=').append(param.getValue());
    }
    return lowerCase(text.toString());
  }

  /** The query's text as it is searched for. */
  public static String lowerCase(String text) {
    return text.toLowerCase(Locale.ROOT);
  }
}
