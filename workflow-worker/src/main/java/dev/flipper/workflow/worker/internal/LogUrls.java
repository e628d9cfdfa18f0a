package dev.flipper.workflow.worker.internal;

import java.util.function.Supplier;

/**
 * The URL under which this worker serves a log: {@code http://<advertised host>:<admin
 * port>/logs/<path>}. The port is known only once the admin server listens, hence the supplier.
 * Thread-safe.
 */
public final class LogUrls {
  private final Supplier<String> base;

  /**
   * @param base e.g. {@code http://host7:9093}, or null when this worker serves no logs (then no
   *     URL is recorded)
   */
  public LogUrls(Supplier<String> base) {
    this.base = base;
  }

  public static LogUrls none() {
    return new LogUrls(() -> null);
  }

  /** The URL of a log path relative to the log directory, or null. */
  public String url(String relativePath) {
    String b = base.get();
    if (b == null) {
      return null;
    }
    // Names are made file-safe with %XX escapes (LogFiles.safeName): in a URL the % itself must be
    // escaped.
    return b + "/logs/" + relativePath.replace("%", "%25");
  }
}
