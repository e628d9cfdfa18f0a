package dev.flipper.workflow.fleet;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.tokens.Json;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Where to fetch a job's log: only {@code http(s)://host:port/logs/...} of a worker known by its
 * heartbeat ({@code /worker/<name>} tokens, alive or dead but not yet forgotten, by their admin
 * URL), and then from the address of the connection that published that heartbeat, which the master
 * writes into it ({@code publisher}, docs/tokens.md), never from a host a token names. A log URL is
 * data a job's execution record carries and anyone who may write a heartbeat names its admin URL,
 * so without this a job or a forged heartbeat could make the UI or {@code flipper workflow logs}
 * fetch any address they can reach (SSRF) and show the answer. Reads the heartbeats at each call
 * (no cache: a worker that just started counts). Thread-safe.
 */
public final class WorkerLogUrls {
  private final TokenMaster master;

  public WorkerLogUrls(TokenMaster master) {
    this.master = master;
  }

  /**
   * The URL to fetch for the log URL {@code url}: its path and port on the publishing address of
   * the worker whose admin URL it names.
   *
   * @throws RefusedException if it is not a log URL of a known worker
   */
  public String fetchable(String url) {
    Optional<String> origin = origin(url).filter(o -> pathOf(url).startsWith("/logs/"));
    if (origin.isEmpty()) {
      throw new RefusedException(
          "log URL '"
              + url
              + "' is not http(s)://<worker admin host:port>/logs/...; it is not fetched");
    }
    for (Token token : master.query(Query.prefix(Heartbeats.PREFIX))) {
      Heartbeats.HeartbeatData beat = Json.read(token, Heartbeats.HeartbeatData.class);
      if (beat.adminUrl != null && beat.publisher != null && origin(beat.adminUrl).equals(origin)) {
        return onPublisher(URI.create(url.strip()), beat.publisher);
      }
    }
    throw new RefusedException(
        "log URL '"
            + url
            + "' is not on a known worker: no heartbeat (/worker/ token) published through the"
            + " master has the admin address "
            + origin.get()
            + "; logs are fetched only from workers");
  }

  private static String onPublisher(URI url, String publisher) {
    String scheme = url.getScheme().toLowerCase(Locale.ROOT);
    int port = url.getPort() != -1 ? url.getPort() : scheme.equals("https") ? 443 : 80;
    String host = publisher.contains(":") ? "[" + publisher + "]" : publisher;
    return scheme
        + "://"
        + host
        + ":"
        + port
        + url.getRawPath()
        + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
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

  /** A log URL that is not fetched: the UI answers 403 with why. */
  public static final class RefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RefusedException(String message) {
      super(message);
    }
  }
}
