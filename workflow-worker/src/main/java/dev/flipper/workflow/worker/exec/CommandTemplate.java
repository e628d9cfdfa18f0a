package dev.flipper.workflow.worker.exec;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A job's command (or cleanup command) with {@code %(name)s} placeholders, filled from the
 * attributes of the events that triggered the job. Immutable and thread-safe.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@code %(name)s} becomes the attribute's values joined with {@code ,} (one value per parent
 *       that sent it, in the order given), <b>quoted for the shell</b> as one word with POSIX
 *       single quotes ({@code it's} becomes {@code 'it'\''s'}); a name without values renders as
 *       {@code ''}. The original rendered the list's Python form ({@code ['aval']}) unquoted. Do
 *       not wrap the placeholder in double quotes: the single quotes would then be part of the
 *       text.
 *   <li>{@code %(name:raw)s} inserts the joined values as they are, not quoted: for a value that is
 *       meant to be shell syntax and comes from a trusted job only.
 *   <li>{@code %%} is a literal {@code %}.
 *   <li>Anything else after a {@code %} is left as it is, so {@code date +%Y-%m-%d} or {@code
 *       printf '%s'} in a command need no escaping, and an unclosed {@code %(name} or a {@code
 *       %(name)d} stays verbatim. (Python's {@code %} operator, which the original used, raised an
 *       error on these instead.)
 *   <li>A name is any text between {@code %(} and the next {@code )} that contains no {@code %}; it
 *       is not trimmed.
 * </ul>
 */
public final class CommandTemplate {
  /** The property whose values fill {@code %(kill_id)s} in a cleanup command. */
  public static final String KILL_ID = "kill_id";

  /** The suffix of a placeholder name that inserts its value unquoted: {@code %(name:raw)s}. */
  public static final String RAW = ":raw";

  private final String template;

  private CommandTemplate(String template) {
    this.template = template;
  }

  public static CommandTemplate of(String template) {
    return new CommandTemplate(Objects.requireNonNull(template, "template"));
  }

  public String template() {
    return template;
  }

  /** True if the template contains {@code %(name)s} or {@code %(name:raw)s}. */
  public boolean uses(String name) {
    return template.contains("%(" + name + ")s") || template.contains("%(" + name + RAW + ")s");
  }

  /**
   * {@code value} as one shell word in POSIX single quotes: {@code it's} gives {@code 'it'\''s'};
   * the shell expands nothing inside.
   */
  public static String shellQuote(String value) {
    return "'" + value.replace("'", "'\\''") + "'";
  }

  /**
   * Renders the template.
   *
   * @param attributes name → values (one per parent that sent the attribute); absent names render
   *     as empty
   */
  public String render(Map<String, ? extends Collection<String>> attributes) {
    Objects.requireNonNull(attributes, "attributes");
    StringBuilder out = new StringBuilder(template.length() + 32);
    int i = 0;
    int n = template.length();
    while (i < n) {
      char c = template.charAt(i);
      if (c != '%' || i + 1 == n) {
        out.append(c);
        i++;
        continue;
      }
      char next = template.charAt(i + 1);
      if (next == '%') {
        out.append('%');
        i += 2;
        continue;
      }
      int end = next == '(' ? placeholderEnd(i) : -1;
      if (end < 0) {
        out.append(c);
        i++;
        continue;
      }
      String name = template.substring(i + 2, end - 2);
      boolean raw = name.endsWith(RAW);
      if (raw) {
        name = name.substring(0, name.length() - RAW.length());
      }
      Collection<String> values = attributes.get(name);
      String value = values == null ? "" : String.join(",", values);
      out.append(raw ? value : shellQuote(value));
      i = end;
    }
    return out.toString();
  }

  /**
   * Renders a cleanup command: {@code %(kill_id)s} from the execution's {@code kill_id} properties.
   */
  public String renderCleanup(Map<String, List<String>> properties) {
    return render(Map.of(KILL_ID, properties.getOrDefault(KILL_ID, List.of())));
  }

  /**
   * For {@code %(} at {@code start}: the index just after {@code )s}, or -1 if this is not a
   * placeholder.
   */
  private int placeholderEnd(int start) {
    int close = template.indexOf(')', start + 2);
    if (close < 0
        || close == start + 2
        || close + 1 >= template.length()
        || template.charAt(close + 1) != 's') {
      return -1;
    }
    if (template.substring(start + 2, close).indexOf('%') >= 0) {
      return -1;
    }
    return close + 2;
  }

  @Override
  public String toString() {
    return template;
  }
}
