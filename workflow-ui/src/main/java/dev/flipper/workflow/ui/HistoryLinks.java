package dev.flipper.workflow.ui;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * URLs of the run history's pages and the relative times they show, for the templates (as {@link
 * Links} for the other pages). Stateless.
 */
public final class HistoryLinks {
  private static final Clock CLOCK = Clock.systemUTC();

  private HistoryLinks() {}

  /** The runs × jobs grid of a workflow. */
  public static String grid(String workflow) {
    return Links.workflow(workflow) + "/grid";
  }

  /** Every execution of one job across a workflow's runs. */
  public static String jobHistory(String workflow, String job) {
    return Links.workflow(workflow)
        + "/jobs/"
        + URLEncoder.encode(job, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * The mark a grid cell of this status carries besides its colour (none for success), so the
   * status does not rest on colour alone.
   */
  public static String mark(String status) {
    return switch (status) {
      case "FAILURE" -> "✕";
      case "ABORTED" -> "!";
      case "RUNNING" -> "▸";
      case "DISABLED" -> "–";
      default -> "";
    };
  }

  /** {@code 5m ago}, {@code 3d 4h ago} for ISO-8601 text; "" for null. */
  public static String ago(String iso) {
    if (iso == null) {
      return "";
    }
    Duration since = Duration.between(Instant.parse(iso), CLOCK.instant());
    return since.isNegative()
        ? "in " + Links.duration(-since.toMillis())
        : Links.duration(since.toMillis()) + " ago";
  }
}
