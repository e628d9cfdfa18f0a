package dev.flipper.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.tls.TlsFolder;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.workflow.worker.exec.LogCleaner;
import dev.flipper.workflow.worker.exec.LogFiles;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workers admin port with mutual TLS: HTTPS only for certificates of the authority, logs by role.
 */
class AdminServerTlsTest {
  @TempDir static Path certificates;
  @TempDir static Path otherCertificates;
  static TlsFolder folder;
  static TlsFolder other;

  @TempDir Path dir;
  private final MetricRegistry metrics = new MetricRegistry();
  private AdminServer server;

  @BeforeAll
  static void issue() throws Exception {
    folder = TlsFolder.init(certificates, List.of(), Clock.systemUTC());
    other = TlsFolder.init(otherCertificates, List.of(), Clock.systemUTC());
  }

  @BeforeEach
  void start() throws Exception {
    LogFiles logs = new LogFiles(dir.resolve("logs"));
    Files.writeString(logs.create("etl", "17", "load", 1).stdout(), "loaded 42 rows\n");
    server =
        new AdminServer(
            "workers",
            "127.0.0.1",
            0,
            metrics,
            () -> Map.of("workers", true),
            List.of(
                new LogEndpoint(logs).route(),
                new LogCleanupEndpoint(new LogCleaner(logs)).route()),
            folder.identity("workers"));
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void theUiReadsLogsAndPrometheusWithACertificateReadsMetrics() throws Exception {
    HttpResponse<String> log = send(as("ui"), "GET", "/logs/etl/17/load.1.stdout");
    HttpResponse<String> scraped = send(as("operator"), "GET", "/metrics");

    assertThat(log.statusCode()).isEqualTo(200);
    assertThat(log.body()).isEqualTo("loaded 42 rows\n");
    assertThat(scraped.statusCode()).isEqualTo(200);
    assertThat(scraped.body()).contains("jvm_");
  }

  @Test
  void anApplicationMayNotReadOrDeleteLogs() throws Exception {
    HttpResponse<String> read = send(as("app"), "GET", "/logs/etl/17/load.1.stdout");
    HttpResponse<String> delete = send(as("app"), "DELETE", "/logs/etl/17");

    assertThat(read.statusCode()).isEqualTo(403);
    assertThat(read.body()).startsWith("role app may not GET /logs/etl/17/load.1.stdout");
    assertThat(delete.statusCode()).isEqualTo(403);
    assertThat(metrics.counter("admin.refused.app").getCount()).isEqualTo(2);
    assertThat(dir.resolve("logs/etl/17/load.1.stdout")).exists();
  }

  @Test
  void noCertificateAnotherAuthorityOrPlainHttpIsRefused() throws Exception {
    Throwable withoutCertificate = catchThrowable(() -> send(trustingOnly(), "GET", "/metrics"));
    Throwable stranger =
        catchThrowable(() -> send(client(other.identity("admin")), "GET", "/metrics"));
    Throwable plain =
        catchThrowable(
            () ->
                HttpClient.newHttpClient()
                    .send(
                        HttpRequest.newBuilder(
                                URI.create("http://localhost:" + server.port() + "/metrics"))
                            .build(),
                        HttpResponse.BodyHandlers.ofString()));

    assertThat(withoutCertificate).isInstanceOf(IOException.class);
    assertThat(stranger).isInstanceOf(IOException.class);
    assertThat(plain).isInstanceOf(IOException.class);
  }

  private HttpResponse<String> send(HttpClient http, String method, String path) throws Exception {
    URI uri = URI.create("https://localhost:" + server.port() + path);
    return http.send(
        HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpClient as(String name) throws Exception {
    return client(folder.identity(name));
  }

  private static HttpClient client(TlsIdentity identity) {
    return HttpClient.newBuilder()
        .sslContext(identity.context())
        .sslParameters(identity.clientParameters())
        .build();
  }

  /** Trusts the authority but has no certificate of its own. */
  private static HttpClient trustingOnly() throws Exception {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    try (InputStream pem = Files.newInputStream(folder.certificate(TlsFolder.AUTHORITY))) {
      trusted.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(pem));
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(context).build();
  }
}
