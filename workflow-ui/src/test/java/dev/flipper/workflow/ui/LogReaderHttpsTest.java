package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log viewer reads a worker's log over HTTPS with the UI's certificate, from a server that
 * demands one (as the workers' admin port does with security.tls).
 */
class LogReaderHttpsTest {
  @TempDir Path dir;
  private TlsFolder certificates;
  private HttpsServer worker;

  @BeforeEach
  void start() throws Exception {
    certificates = TlsFolder.init(dir, List.of(), Clock.systemUTC());
    TlsIdentity workers = certificates.identity("workers");
    worker = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    worker.setHttpsConfigurator(
        new HttpsConfigurator(workers.context()) {
          @Override
          public void configure(HttpsParameters parameters) {
            parameters.setSSLParameters(workers.serverParameters());
          }
        });
    worker.createContext(
        "/logs/etl/17/load.1.stdout",
        exchange -> {
          byte[] body = "loaded 42 rows\n".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("X-Log-Offset", "0");
          exchange.getResponseHeaders().add("X-Log-Next-Offset", String.valueOf(body.length));
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    worker.start();
  }

  @AfterEach
  void stop() {
    worker.stop(0);
  }

  @Test
  void readsALogWrittenAsAnHttpUrlOverMutualTls() throws Exception {
    LogReader reader = new LogReader(certificates.identity("ui"));
    String url = "http://localhost:" + worker.getAddress().getPort() + "/logs/etl/17/load.1.stdout";

    LogReader.Part part = reader.read(url, 0, 1000);

    assertThat(part.text()).isEqualTo("loaded 42 rows\n");
    assertThat(part.nextOffset()).isEqualTo(15);
  }

  @Test
  void withoutTheUisCertificateTheLogIsUnavailable() {
    LogReader reader = new LogReader(null);
    String url = "http://localhost:" + worker.getAddress().getPort() + "/logs/etl/17/load.1.stdout";

    LogReader.LogUnavailableException e =
        catchThrowableOfType(
            LogReader.LogUnavailableException.class, () -> reader.read(url, 0, 1000));

    assertThat(e).hasMessageContaining("cannot read log " + url);
  }
}
