package dev.flipper.workflow.ui.queue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Paths of the queue dashboard's pages, for the templates (which HTML-escape them). Stateless. */
public final class QueueLinks {
  private QueueLinks() {}

  public static String queues() {
    return "/queues";
  }

  public static String queue(String queue) {
    return "/queues/" + URLEncoder.encode(queue, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A scan of {@code state} (and {@code priority}, null = all) of the queue. */
  public static String scan(String queue, String state, Integer priority, boolean future) {
    return queue(queue)
        + "?state="
        + state
        + (priority == null ? "" : "&priority=" + priority)
        + (future ? "&future=true" : "");
  }

  /** The next page of a scan. */
  public static String next(String queue, QueueViews.Scan scan) {
    return scan(queue, scan.state(), scan.priority(), scan.future())
        + "&limit="
        + scan.limit()
        + (scan.filter().isEmpty() ? "" : "&filter=" + query(scan.filter()))
        + "&continuation="
        + query(scan.next());
  }

  public static String job(String descriptor) {
    return "/queue-job?descriptor=" + query(descriptor);
  }

  /** Jobs per second with up to two decimals, or "–" while unknown. */
  public static String rate(Double perSecond) {
    return perSecond == null
        ? "–"
        : perSecond % 1 == 0 ? Long.toString(perSecond.longValue()) : String.valueOf(perSecond);
  }

  /**
   * A rate limit in dequeues per second; "none" when the queue is not limited (or no file is read).
   */
  public static String limit(Double perSecond) {
    return perSecond == null ? "none" : rate(perSecond) + "/s";
  }

  private static String query(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
