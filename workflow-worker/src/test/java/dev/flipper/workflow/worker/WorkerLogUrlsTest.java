package dev.flipper.workflow.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.UiLinks;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the workers say their logs are served when the launcher's admin server serves them on
 * bindAddress:port.
 */
class WorkerLogUrlsTest {
  @TempDir Path dir;

  private WorkerDaemon daemon(String advertisedHost) {
    WorkerDaemon.Config config =
        new WorkerDaemon.Config(
            1,
            Duration.ofSeconds(3),
            Duration.ofHours(12),
            Duration.ofSeconds(5),
            dir.resolve("logs").toString(),
            "",
            advertisedHost,
            "127.0.0.1");
    return new WorkerDaemon(
        config, TokenService.builder(InMemoryTokenStore.create()).build(), new MetricRegistry());
  }

  @Test
  void namesTheAdvertisedHostElseTheBindAddressElseThisMachine() throws Exception {
    assertThat(daemon("logs.example.com").serveLogsAt("0.0.0.0", 9093).endpoints())
        .containsExactly("logs http://logs.example.com:9093/logs/");
    assertThat(daemon("").serveLogsAt("10.1.2.3", 9093).endpoints())
        .containsExactly("logs http://10.1.2.3:9093/logs/");
    assertThat(daemon("").serveLogsAt("::1", 9093).endpoints())
        .containsExactly("logs http://[::1]:9093/logs/");
    assertThat(daemon("").serveLogsAt("0.0.0.0", 9093).endpoints())
        .containsExactly("logs http://" + InetAddress.getLocalHost().getHostName() + ":9093/logs/");
  }

  @Test
  void noLogUrlsUntilToldWhere() {
    WorkerDaemon daemon = daemon("");
    assertThat(daemon.mailWith(MailSettings.disabled(), new UiLinks("http://ui.test:8080")))
        .isSameAs(daemon);
    assertThat(daemon.endpoints()).isEmpty();
    daemon.close(); // never started: nothing to stop
  }
}
