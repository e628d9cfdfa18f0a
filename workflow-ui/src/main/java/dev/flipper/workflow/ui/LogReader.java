package dev.flipper.workflow.ui;

import dev.flipper.tls.Role;
import dev.flipper.tls.ServerRole;
import dev.flipper.tls.TlsHttp;
import dev.flipper.tls.TlsIdentity;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Reads job logs from the worker that wrote them, through the URL in the execution record (the
 * worker's admin port serves {@code GET /logs/<path>}, whole or from a byte offset; see the
 * workers' LogEndpoint). So the UI needs no shared filesystem. With a TLS identity it presents it
 * and reads only from a server holding a worker certificate. Thread-safe.
 */
final class LogReader {
  /** The most a page asks for at once; the worker caps a chunk at 1 MiB too. */
  static final int MAX_CHUNK = 1 << 20;

  private final HttpClient http;
  private final TlsIdentity tls;

  /**
   * @param tls the UI's identity when the workers' admin ports speak mutual TLS; null: plain HTTP
   */
  LogReader(TlsIdentity tls) {
    this.tls = tls;
    this.http = TlsHttp.client(tls, Duration.ofSeconds(5));
  }

  /** A part of a log: the bytes, where they start, where to ask next and the log's size now. */
  record Part(byte[] data, long offset, long nextOffset, long size) {
    String text() {
      return new String(data, StandardCharsets.UTF_8);
    }
  }

  /**
   * Up to {@code max} bytes from {@code offset} (negative: counted from the end).
   *
   * @throws LogUnavailableException if the worker does not answer or has no such log
   */
  Part read(String url, long offset, int max) {
    HttpResponse<byte[]> response =
        send(
            url + "?offset=" + offset + "&max=" + Math.min(max, MAX_CHUNK),
            HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() != 200) {
      throw new LogUnavailableException(
          url,
          "HTTP "
              + response.statusCode()
              + " "
              + new String(response.body(), StandardCharsets.UTF_8).strip());
    }
    byte[] data = response.body();
    long from = response.headers().firstValueAsLong("X-Log-Offset").orElse(offset);
    long next = response.headers().firstValueAsLong("X-Log-Next-Offset").orElse(from + data.length);
    long size = response.headers().firstValueAsLong("X-Log-Size").orElse(next);
    return new Part(data, from, next, size);
  }

  /** The whole log as a stream (for downloads); the caller closes it. */
  InputStream open(String url) {
    HttpResponse<InputStream> response = send(url, HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200) {
      try (InputStream body = response.body()) {
        throw new LogUnavailableException(
            url,
            "HTTP "
                + response.statusCode()
                + " "
                + new String(body.readNBytes(500), StandardCharsets.UTF_8).strip());
      } catch (IOException e) {
        throw new LogUnavailableException(url, "HTTP " + response.statusCode());
      }
    }
    return response.body();
  }

  private <T> HttpResponse<T> send(String url, HttpResponse.BodyHandler<T> handler) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(TlsHttp.url(url, tls)))
              .timeout(Duration.ofSeconds(30))
              .GET()
              .build();
      HttpResponse<T> response = http.send(request, handler);
      if (tls != null) {
        requireWorker(url, response);
      }
      return response;
    } catch (IOException | IllegalArgumentException e) {
      throw new LogUnavailableException(
          url, e.toString() + " (is the worker that ran the job still up?)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LogUnavailableException(url, "interrupted");
    }
  }

  private static void requireWorker(String url, HttpResponse<?> response) {
    try {
      ServerRole.require(response, Role.WORKER);
    } catch (SSLPeerUnverifiedException e) {
      if (response.body() instanceof InputStream body) {
        try {
          body.close();
        } catch (IOException ignored) {
          // refused either way
        }
      }
      throw new LogUnavailableException(url, e.getMessage());
    }
  }

  /** The log could not be read from its worker: 502 with what went wrong. */
  static final class LogUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LogUnavailableException(String url, String why) {
      super("cannot read log " + url + ": " + why);
    }
  }
}
