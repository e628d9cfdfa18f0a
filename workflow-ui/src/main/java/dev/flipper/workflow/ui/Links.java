package dev.flipper.workflow.ui;

import dev.flipper.workflow.mail.UiLinks;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * URLs of the pages and how values are shown, for the templates. Every name in a URL is
 * percent-encoded (a token or job name may hold any visible ASCII), and the templates HTML-escape
 * the result. Stateless.
 */
public final class Links {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  /** The paths e-mail links point to (with the UI's base URL there): one scheme for both. */
  private static final UiLinks PATHS = new UiLinks("");

  private Links() {}

  public static String workflow(String workflow) {
    return PATHS.workflow(workflow);
  }

  public static String instance(String workflow, String instance) {
    return PATHS.instance(workflow, instance);
  }

  public static String job(String workflow, String instance, String job) {
    return PATHS.job(workflow, instance, job);
  }

  public static String log(
      String workflow, String instance, String job, int execution, String stream) {
    return job(workflow, instance, job) + "/executions/" + execution + "/logs/" + seg(stream);
  }

  public static String tokens(String path) {
    return "/tokens?path=" + query(path);
  }

  public static String token(String name) {
    return "/token?name=" + query(name);
  }

  /** ISO-8601 text as {@code 2026-01-02 03:04:05 UTC}; "" for null. */
  public static String time(String iso) {
    return iso == null ? "" : TIME.format(Instant.parse(iso));
  }

  /** {@code 1h 2m 3s}, {@code 4.2s}; "" for null. */
  public static String duration(Long millis) {
    if (millis == null) {
      return "";
    }
    if (millis < 60_000) {
      return String.format("%.1fs", millis / 1000.0);
    }
    Duration d = Duration.ofMillis(millis);
    StringBuilder text = new StringBuilder();
    if (d.toDays() > 0) {
      text.append(d.toDays()).append("d ");
    }
    if (d.toHoursPart() > 0 || d.toDays() > 0) {
      text.append(d.toHoursPart()).append("h ");
    }
    return text.append(d.toMinutesPart())
        .append("m ")
        .append(d.toSecondsPart())
        .append('s')
        .toString();
  }

  /** A CSS class for a status (lower case), "none" for null. */
  public static String statusClass(String status) {
    return status == null ? "none" : status.toLowerCase(Locale.ROOT);
  }

  private static String seg(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String query(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
