package dev.flipper.workflow.ui;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * URLs and marks of the run history's pages, for the templates (as {@link Links} for the other
 * pages). Stateless.
 */
public final class HistoryLinks {
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
}
