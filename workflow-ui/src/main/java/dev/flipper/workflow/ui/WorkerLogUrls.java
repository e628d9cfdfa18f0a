package dev.flipper.workflow.ui;

import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which log URLs the UI fetches: only {@code http(s)://host:port/logs/...} of a worker known by its
 * heartbeat ({@code /worker/<name>} tokens, alive or dead but not yet forgotten, by their admin
 * URL). A log URL is data a job's execution record carries, so without this check a job could make
 * the UI fetch any address it can reach (SSRF) and show the answer. Reads the heartbeats at each
 * check (no cache: a worker that just started counts). Thread-safe.
 */
final class WorkerLogUrls {
  private final TokenMaster master;

  WorkerLogUrls(TokenMaster master) {
    this.master = master;
  }

  /**
   * Returns {@code url} if the UI may fetch it.
   *
   * @throws RefusedException if it is not a log URL of a known worker
   */
  String check(String url) {
    Optional<String> origin = origin(url).filter(o -> pathOf(url).startsWith("/logs/"));
    if (origin.isEmpty()) {
      throw new RefusedException(
          "log URL '"
              + url
              + "' is not http(s)://<worker admin host:port>/logs/...; the UI"
              + " does not fetch it");
    }
    Set<String> workers = new HashSet<>();
    for (Heartbeat beat : new Heartbeats(master).list()) {
      beat.adminUrl().flatMap(WorkerLogUrls::origin).ifPresent(workers::add);
    }
    if (!workers.contains(origin.get())) {
      throw new RefusedException(
          "log URL '"
              + url
              + "' is not on a known worker: no heartbeat (/worker/ token)"
              + " has the admin address "
              + origin.get()
              + "; the UI fetches logs only from workers");
    }
    return url;
  }

  /**
   * {@code http://host:port} with the default port made explicit, lower case; empty if not an
   * http(s) URL.
   */
  static Optional<String> origin(String url) {
    try {
      URI uri = new URI(url.strip());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")
          || uri.getHost() == null
          || uri.getUserInfo() != null) {
        return Optional.empty();
      }
      int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
      return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port);
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  /** The normalized path, so {@code /logs/../admin} does not pass as a log path. */
  private static String pathOf(String url) {
    try {
      String path = new URI(url.strip()).normalize().getRawPath();
      return path == null || path.contains("/../") || path.startsWith("/..") ? "" : path;
    } catch (URISyntaxException e) {
      return "";
    }
  }

  /** A log URL the UI will not fetch: 403 with why. */
  static final class RefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RefusedException(String message) {
      super(message);
    }
  }
}
