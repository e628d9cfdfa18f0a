package dev.flipper.launcher.workflow;

import dev.flipper.tls.TlsHttp;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.workflow.fleet.WorkerLogUrls;
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
import java.util.function.UnaryOperator;

/**
 * Deletes the job logs of cleaned-up executions on the workers that wrote them: {@code DELETE} on
 * each log URL (the workers' {@code LogCleanupEndpoint}), sent only where {@link WorkerLogUrls}
 * fetches logs from (the address that published a known worker's heartbeat), never to a host an
 * execution record names. Hosts share no filesystem, so only the worker can delete its files. A
 * worker that does not answer is skipped after its first failure and named in the notes; its files
 * stay (a later cleanup no longer knows them: the notes say which worker still holds them).
 */
final class WorkerLogCleanup {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient http;
  private final TlsIdentity tls;
  private final UnaryOperator<String> workers;

  /**
   * @param tls the command's identity when the workers' admin ports speak mutual TLS; null: HTTP
   * @param workers where a log URL is deleted, e.g. {@link WorkerLogUrls#fetchable}; throws {@link
   *     WorkerLogUrls.RefusedException} for a URL that is not on a known worker
   */
  WorkerLogCleanup(TlsIdentity tls, UnaryOperator<String> workers) {
    this.tls = tls;
    this.http = TlsHttp.client(tls, TIMEOUT);
    this.workers = workers;
  }

  /**
   * Deletes each log; returns notes for the operation's result: how many were deleted, what was
   * left.
   */
  List<String> delete(List<String> logUrls) {
    int deleted = 0;
    Map<String, Integer> left = new TreeMap<>(); // worker (or reason) -> logs left
    for (String url : logUrls) {
      String target;
      try {
        target = workers.apply(url);
      } catch (WorkerLogUrls.RefusedException e) {
        left.merge("not a log of a known worker (" + url + ")", 1, Integer::sum);
        continue;
      }
      URI uri = URI.create(TlsHttp.url(target, tls));
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
            notes.add(
                count
                    + " log files not deleted: "
                    + (worker.startsWith("not ") ? worker : worker + " did not delete them")));
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
