package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flipper.config.ConfigLoader;
import dev.flipper.queue.server.QueueDaemon;
import dev.flipper.tls.CertificateAuthority;
import dev.flipper.tls.IssuedCertificate;
import dev.flipper.tls.Role;
import dev.flipper.tls.TlsFolder;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.tokens.TokenLayout;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemons with {@code security.tls}: real daemons in this JVM, each presenting its own
 * certificate from {@code flipper tls init}'s folder; the workers run an operator's workflow but
 * cannot change its definition, and every Thrift and admin port refuses whoever has no certificate
 * of the authority.
 */
@Tag("processes")
class SecureModesTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int cli(List<String> options, String... command) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(options);
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return Launcher.execute(
        args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void workersRunAnOperatorsWorkflowOverTlsButCannotChangeDefinitions() throws Exception {
    TlsFolder folder = TlsFolder.init(dir.resolve("tls"), List.of(), Clock.systemUTC());
    ModeRunner runner =
        new ModeRunner(
            ConfigLoader.defaults(
                List.of(
                    "storage.jdbc.shards=[{name: '1', url: 'jdbc:h2:file:"
                        + dir.resolve("flipper")
                        + ";MODE=MySQL'}]",
                    "master.port=0",
                    "master.adminPort=0",
                    "scheduler.adminPort=0",
                    "workers.adminPort=0",
                    "workers.logDir=" + dir.resolve("logs"),
                    "security.tls=true",
                    "security.certificates=" + folder.dir()),
                Map.of()),
            new PrintWriter(new StringWriter()));
    runner.start(List.of(Mode.MASTER, Mode.SCHEDULER, Mode.WORKERS));
    int port = ((MasterDaemon) runner.running().get(0).daemon()).port();
    try (TokenMasterClient operator =
            TokenMasterClient.builder("localhost", port).tls(folder.identity("operator")).build();
        TokenMasterClient worker =
            TokenMasterClient.builder("localhost", port)
                .connectAttempts(1)
                .tls(folder.identity("workers"))
                .build()) {
      String instance = DemoWorkflows.applyAndStart(operator);

      WorkflowEngine engine = WorkflowEngine.builder(operator).build();
      await()
          .atMost(Duration.ofMinutes(1))
          .until(
              () ->
                  engine
                      .status()
                      .instance(DemoWorkflows.STARTED, instance)
                      .orElseThrow()
                      .summary()
                      .status(),
              status -> status == InstanceStatus.SUCCESS);
      assertThatThrownBy(
              () ->
                  worker.modify(
                      ModifyParams.updating(
                          Token.of(TokenLayout.definition(DemoWorkflows.STARTED), "{}"))))
          .hasMessageContaining("role worker may not write /definition/etl");

      // The commands present security.identity (default operator).
      List<String> tls =
          List.of(
              "--host",
              "localhost",
              "--set",
              "master.port=" + port,
              "--set",
              "security.tls=true",
              "--set",
              "security.certificates=" + folder.dir());
      assertThat(cli(tls, "workflow", "status", "-w", DemoWorkflows.STARTED)).isZero();
      assertThat(out.toString()).contains(instance).contains("SUCCESS");
      Path file = dir.resolve("hello.yaml");
      Files.writeString(file, "workflow: hello\njobs:\n  say:\n    command: echo hello\n");
      List<String> asWorkers = new ArrayList<>(tls);
      asWorkers.addAll(List.of("--set", "security.identity=workers"));
      assertThat(cli(asWorkers, "workflow", "apply", file.toString())).isEqualTo(1);
      assertThat(err.toString()).contains("role worker may not write /definition/hello");
      assertThat(cli(tls, "workflow", "apply", file.toString())).as(err.toString()).isZero();
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }

  @Test
  void everyThriftAndAdminPortRefusesClientsWithoutACertificateOfTheAuthority(@TempDir Path other)
      throws Exception {
    TlsFolder folder = TlsFolder.init(dir.resolve("tls"), List.of(), Clock.systemUTC());
    X509Certificate authority = authority(folder);
    // A certificate of another authority, presented by a client that trusts our servers: only the
    // server's check can stop it.
    CertificateAuthority mallory =
        CertificateAuthority.create("mallory", Duration.ofDays(1), Clock.systemUTC());
    IssuedCertificate forged =
        mallory.issue("mallory", Role.ADMIN, List.of("localhost"), Duration.ofDays(1));
    KeyStore strangerKeys = KeyStore.getInstance("PKCS12");
    strangerKeys.load(null, null);
    strangerKeys.setKeyEntry(
        "mallory",
        forged.key(),
        new char[0],
        new X509Certificate[] {forged.certificate(), mallory.own().certificate()});
    ModeRunner runner =
        new ModeRunner(
            ConfigLoader.defaults(
                List.of(
                    "storage.jdbc.shards=[{name: '1', url: 'jdbc:h2:file:"
                        + dir.resolve("flipper")
                        + ";MODE=MySQL'}]",
                    "queue.port=0",
                    "queue.adminPort=0",
                    "master.port=0",
                    "master.adminPort=0",
                    "scheduler.adminPort=0",
                    "workers.adminPort=0",
                    "workers.logDir=" + dir.resolve("logs"),
                    "ui.port=0",
                    "ui.adminPort=0",
                    "security.tls=true",
                    "security.certificates=" + folder.dir()),
                Map.of()),
            new PrintWriter(new StringWriter()));
    runner.start(List.of(Mode.QUEUE, Mode.MASTER, Mode.SCHEDULER, Mode.WORKERS, Mode.UI));
    try {
      Map<String, Integer> ports = new LinkedHashMap<>();
      for (ModeRunner.Running running : runner.running()) {
        ports.put(running.mode() + " admin", running.admin().port());
        if (running.daemon() instanceof QueueDaemon queue) {
          ports.put("queue thrift", queue.port());
        } else if (running.daemon() instanceof MasterDaemon master) {
          ports.put("master thrift", master.port());
        }
      }
      assertThat(ports).hasSize(7);
      SSLContext bare = context(null, authority);
      SSLContext stranger = context(strangerKeys, authority);
      SSLContext admin = folder.identity("admin").context();

      for (Map.Entry<String, Integer> port : ports.entrySet()) {
        int number = port.getValue();
        assertThat(refused(() -> plain(number))).as(port.getKey() + ", plain").isTrue();
        assertThat(refused(() -> tls(bare, number)))
            .as(port.getKey() + ", TLS without a certificate")
            .isTrue();
        assertThat(refused(() -> tls(stranger, number)))
            .as(port.getKey() + ", another authority's certificate")
            .isTrue();
        assertThat(refused(() -> tls(admin, number)))
            .as(port.getKey() + ", an admin certificate of the authority")
            .isFalse();
      }
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }

  /** What a connection that said something got back: a byte, or -1 if it was closed. */
  private interface Exchange {
    int run() throws IOException;
  }

  /** True when the server closed the connection or failed its handshake, not when it timed out. */
  private static boolean refused(Exchange exchange) {
    try {
      int answer = exchange.run();
      return answer == -1 || answer == 0x15; // closed, or a TLS alert record
    } catch (SocketTimeoutException silence) {
      return false;
    } catch (IOException closed) {
      return true;
    }
  }

  private static int plain(int port) throws IOException {
    try (Socket socket = new Socket("localhost", port)) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes());
      return socket.getInputStream().read();
    }
  }

  /** Sends a request over TLS; a server that took the certificate answers with a byte. */
  private static int tls(SSLContext context, int port) throws IOException {
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket("localhost", port)) {
      socket.setSoTimeout(10_000);
      socket.startHandshake();
      // An HTTP request for the admin ports; a Thrift server reads it as a bad frame and closes,
      // which still shows the handshake passed (no SSLException).
      socket.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes());
      int answer = socket.getInputStream().read();
      return answer == -1 ? 'x' : answer; // -1 after a handshake that passed: not a refusal
    }
  }

  /** A client context trusting {@code authority}, presenting the key in {@code keys} if any. */
  private static SSLContext context(KeyStore keys, X509Certificate authority) throws Exception {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    trusted.setCertificateEntry("authority", authority);
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    KeyManager[] own = null;
    if (keys != null) {
      KeyManagerFactory factory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(keys, new char[0]);
      own = factory.getKeyManagers();
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(own, trust.getTrustManagers(), null);
    return context;
  }

  private static X509Certificate authority(TlsFolder folder) throws Exception {
    try (var in = Files.newInputStream(folder.certificate(TlsFolder.AUTHORITY))) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }
}
