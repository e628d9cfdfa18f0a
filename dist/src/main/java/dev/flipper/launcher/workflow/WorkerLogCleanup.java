package dev.flipper.launcher.workflow;

import dev.flipper.tls.TlsHttp;
import dev.flipper.tls.TlsIdentity;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Deletes the job logs of cleaned-up executions on the workers that wrote them: {@code DELETE} on
 * each log URL (the workers' {@code LogCleanupEndpoint}). Hosts share no filesystem, so only the
 * worker can delete its files. A worker that does not answer is skipped after its first failure and
 * named in the notes; its files stay (a later cleanup no longer knows them: the notes say which
 * worker still holds them).
 */
final class WorkerLogCleanup {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient http;
  private final TlsIdentity tls;

  /**
   * @param tls the command's identity when the workers' admin ports speak mutual TLS; null: HTTP
   */
  WorkerLogCleanup(TlsIdentity tls) {
    this.tls = tls;
    this.http = TlsHttp.client(tls, TIMEOUT);
  }

  /**
   * Deletes each log; returns notes for the operation's result: how many were deleted, what was
   * left.
   */
  List<String> delete(List<String> logUrls) {
    int deleted = 0;
    Map<String, Integer> left = new TreeMap<>(); // worker (or reason) -> logs left
    for (String url : logUrls) {
      URI uri = URI.create(TlsHttp.url(url, tls));
      String worker = uri.getScheme() + "://" + uri.getAuthority();
      if (!uri.getScheme().startsWith("http")) {
        left.merge("not an http URL (" + worker + ")", 1, Integer::sum);
      } else if (left.containsKey(worker)) {
        left.merge(worker, 1, Integer::sum);
      } else if (deleteOne(uri)) {
        deleted++;
      } else {
        left.merge(worker, 1, Integer::sum);
      }
    }
    List<String> notes = new ArrayList<>();
    if (!logUrls.isEmpty()) {
      notes.add("deleted " + deleted + " of " + logUrls.size() + " log files on the workers");
    }
    left.forEach(
        (worker, count) ->
            notes.add(count + " log files not deleted: " + worker + " did not delete them"));
    return notes;
  }

  private boolean deleteOne(URI uri) {
    try {
      HttpRequest request = HttpRequest.newBuilder(uri).DELETE().timeout(TIMEOUT).build();
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
