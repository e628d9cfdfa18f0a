package dev.flipper.workflow.ui;

import dev.flipper.text.Readable;
import dev.flipper.workflow.engine.JobStatus;
import dev.flipper.workflow.mail.UiLinks;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * URLs of the pages and how values are shown, for the templates. Every name in a URL is
 * percent-encoded (a token or job name may hold any visible ASCII), and the templates HTML-escape
 * the result. Stateless.
 */
public final class Links {
  /** Every job status, in the order the graph's legend lists them (JobStatus names). */
  public static final List<String> JOB_STATUSES =
      Arrays.stream(JobStatus.values()).map(Enum::name).toList();

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

  /** ISO-8601 text as {@code 2026-01-02 03:04:05 UTC} ({@link Readable#time}); "" for null. */
  public static String time(String iso) {
    return iso == null ? "" : Readable.time(Instant.parse(iso));
  }

  /** {@code 15s}, {@code 1h 2m}, {@code 3d 4h} ({@link Readable#duration}); "" for null. */
  public static String duration(Long millis) {
    return millis == null ? "" : Readable.millis(millis);
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
