package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.flipper.tls.TlsFolder;
import dev.flipper.tls.TlsIdentity;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With TLS the UI reads a job log only from a server presenting a worker certificate: another
 * service of the deployment (here one holding the queue's certificate) on a worker's address, or a
 * server without TLS, is refused before its answer is shown.
 */
class LogReaderTlsTest {
  @TempDir Path dir;

  private TlsFolder folder;
  private HttpServer server;

  @BeforeEach
  void certificates() throws Exception {
    folder = TlsFolder.init(dir, List.of(), Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private String serveAs(TlsIdentity identity) throws Exception {
    HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    https.setHttpsConfigurator(
        new HttpsConfigurator(identity.context()) {
          @Override
          public void configure(HttpsParameters parameters) {
            parameters.setSSLParameters(identity.serverParameters());
          }
        });
    server = https;
    return start("https");
  }

  private String start(String scheme) throws Exception {
    server.createContext(
        "/logs/",
        exchange -> {
          byte[] body = "secret log\n".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    return scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/logs/etl/1/a/1/stdout";
  }

  private LogReader ui() throws Exception {
    return new LogReader(folder.identity("ui"));
  }

  @Test
  void aWorkerCertificatesLogIsRead() throws Exception {
    String url = serveAs(folder.identity("workers"));

    assertThat(ui().read(url, 0, 100).text()).isEqualTo("secret log\n");
  }

  @Test
  void anotherRolesServerIsRefused() throws Exception {
    String url = serveAs(folder.identity("queue"));

    assertThatThrownBy(() -> ui().read(url, 0, 100))
        .isInstanceOf(LogReader.LogUnavailableException.class)
        .hasMessageContaining(
            "presented the certificate of queue \"queue\", not one of role worker");
    assertThatThrownBy(() -> ui().open(url))
        .isInstanceOf(LogReader.LogUnavailableException.class)
        .hasMessageContaining("not one of role worker");
  }

  @Test
  void aServerWithoutTlsIsNeverReadInPlainText() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    AtomicInteger plainRequests = new AtomicInteger();
    server.createContext(
        "/logs/",
        exchange -> {
          plainRequests.incrementAndGet();
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/logs/etl/1/a/1/stdout";

    // the http:// URL is read as https://: the plain server gets a TLS handshake it cannot answer
    assertThatThrownBy(() -> ui().read(url, 0, 100))
        .isInstanceOf(LogReader.LogUnavailableException.class);
    assertThat(plainRequests).hasValue(0);
  }
}
