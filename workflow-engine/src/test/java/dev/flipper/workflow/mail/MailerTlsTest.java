package dev.flipper.workflow.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code email.security} TLS and STARTTLS against real TLS servers on ephemeral ports, with a
 * certificate for 127.0.0.1 made for this test (so the host name check stays on). TLS: GreenMail's
 * SMTPS. STARTTLS: GreenMail 2.1 does not offer it, so a small front speaks the plain greeting and
 * STARTTLS, then relays the encrypted session to GreenMail's plain SMTP port.
 */
class MailerTlsTest {
  private static final String PASSWORD = "changeit";
  private static final Notifications NOTES = new Notifications(new UiLinks(""));

  @TempDir static Path dir;

  private static GreenMail greenMail;
  private static SSLContext serverTls;
  private static SSLContext clientTls;
  private static StartTlsFront front;

  @BeforeAll
  static void servers() throws Exception {
    Path keystore = dir.resolve("smtp.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "smtp",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-keystore",
                keystore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD)
            .inheritIO()
            .start();
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0)
        .as("keytool made a key")
        .isTrue();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      keys.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, PASSWORD.toCharArray());
    serverTls = SSLContext.getInstance("TLS");
    serverTls.init(kmf.getKeyManagers(), null, null);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(keys);
    clientTls = SSLContext.getInstance("TLS");
    clientTls.init(null, tmf.getTrustManagers(), null);

    // GreenMail reads its key store once, when its first TLS server starts.
    System.setProperty("greenmail.tls.keystore.file", keystore.toString());
    System.setProperty("greenmail.tls.keystore.password", PASSWORD);
    System.setProperty("greenmail.tls.key.password", PASSWORD);
    greenMail =
        new GreenMail(
            new ServerSetup[] {
              new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort(),
              new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTPS).dynamicPort()
            });
    greenMail.start();
    front = new StartTlsFront(greenMail.getSmtp().getPort());
  }

  @AfterAll
  static void stop() throws IOException {
    front.close();
    greenMail.stop();
  }

  private static Mailer mailer(int port, MailSecurity security) {
    return new Mailer(
        MailSettings.smtp("127.0.0.1", port, "flipper@example.com")
            .withSecurity(security)
            .withRetries(1, Duration.ZERO, Duration.ofSeconds(10)),
        clientTls.getSocketFactory());
  }

  private static int received(String subject) {
    return (int)
        java.util.Arrays.stream(greenMail.getReceivedMessages())
            .filter(
                m -> {
                  try {
                    return m.getSubject().equals(subject);
                  } catch (jakarta.mail.MessagingException e) {
                    throw new IllegalStateException(e);
                  }
                })
            .count();
  }

  @Test
  void tlsFromTheFirstByte() {
    try (Mailer mailer = mailer(greenMail.getSmtps().getPort(), MailSecurity.TLS)) {
      mailer.send(
          NOTES.tooManyInstances("tls_wf", 3, 3, Instant.EPOCH, List.of("data@example.com")));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> mailer.sentCount() + mailer.failedCount() == 1);
      assertThat(mailer.sentCount()).isEqualTo(1);
      assertThat(received("Too many (3) instances running for workflow tls_wf")).isEqualTo(1);
    }
  }

  @Test
  void starttlsUpgradesThePlainConnection() {
    int before = front.upgraded.get();
    try (Mailer mailer = mailer(front.port(), MailSecurity.STARTTLS)) {
      mailer.send(
          NOTES.tooManyInstances("starttls_wf", 3, 3, Instant.EPOCH, List.of("data@example.com")));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> mailer.sentCount() + mailer.failedCount() == 1);
      assertThat(mailer.sentCount()).isEqualTo(1);
      assertThat(front.upgraded.get()).isEqualTo(before + 1);
      assertThat(received("Too many (3) instances running for workflow starttls_wf")).isEqualTo(1);
    }
  }

  @Test
  void starttlsIsRequiredOnceAskedFor() {
    // GreenMail's plain port does not offer STARTTLS: the mailer refuses to send in clear text.
    try (Mailer mailer = mailer(greenMail.getSmtp().getPort(), MailSecurity.STARTTLS)) {
      mailer.send(
          NOTES.tooManyInstances("clear_wf", 3, 3, Instant.EPOCH, List.of("data@example.com")));
      await().atMost(Duration.ofSeconds(20)).until(() -> mailer.failedCount() == 1);
      assertThat(received("Too many (3) instances running for workflow clear_wf")).isZero();
    }
  }

  @Test
  void aCertificateNotTrustedFails() {
    // The JVM's default trust store does not know the test's certificate.
    int before = front.upgraded.get();
    Mailer mailer =
        new Mailer(
            MailSettings.smtp("127.0.0.1", front.port(), "flipper@example.com")
                .withSecurity(MailSecurity.STARTTLS)
                .withRetries(1, Duration.ZERO, Duration.ofSeconds(10)));
    try (mailer) {
      mailer.send(
          NOTES.tooManyInstances("untrusted_wf", 3, 3, Instant.EPOCH, List.of("data@example.com")));
      await().atMost(Duration.ofSeconds(20)).until(() -> mailer.failedCount() == 1);
      assertThat(front.upgraded.get()).isEqualTo(before);
      assertThat(received("Too many (3) instances running for workflow untrusted_wf")).isZero();
    }
  }

  /**
   * Plain SMTP up to STARTTLS, then the TLS session relayed to a plain SMTP server (whose greeting
   * is dropped).
   */
  private static final class StartTlsFront implements AutoCloseable {
    final AtomicInteger upgraded = new AtomicInteger();
    private final ServerSocket server;
    private final int target;

    StartTlsFront(int target) throws IOException {
      this.target = target;
      this.server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
      Thread acceptor = new Thread(this::accept, "starttls-front");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return server.getLocalPort();
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket client = server.accept();
          Thread session = new Thread(() -> serve(client), "starttls-session");
          session.setDaemon(true);
          session.start();
        } catch (IOException e) {
          return; // closed
        }
      }
    }

    private void serve(Socket plain) {
      try (plain) {
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(plain.getInputStream(), StandardCharsets.US_ASCII));
        OutputStream out = plain.getOutputStream();
        write(out, "220 front ESMTP");
        while (true) {
          String line = in.readLine();
          if (line == null) {
            return;
          }
          String command = line.toUpperCase(java.util.Locale.ROOT);
          if (command.startsWith("EHLO")) {
            write(out, "250-front\r\n250 STARTTLS");
          } else if (command.equals("STARTTLS")) {
            write(out, "220 go ahead");
            break;
          } else if (command.equals("QUIT")) {
            write(out, "221 bye");
            return;
          } else {
            write(out, "530 5.7.0 Must issue a STARTTLS command first");
          }
        }
        SSLSocket tls =
            (SSLSocket)
                serverTls
                    .getSocketFactory()
                    .createSocket(
                        plain, plain.getInetAddress().getHostAddress(), plain.getPort(), false);
        tls.setUseClientMode(false);
        tls.startHandshake();
        upgraded.incrementAndGet();
        try (Socket smtp = new Socket(InetAddress.getLoopbackAddress(), target)) {
          InputStream fromSmtp = smtp.getInputStream();
          int c;
          while ((c = fromSmtp.read()) != -1 && c != '\n') {
            // drop GreenMail's greeting: the client had ours
          }
          Thread back = new Thread(() -> pipe(fromSmtp, outOf(tls)), "starttls-back");
          back.setDaemon(true);
          back.start();
          pipe(tls.getInputStream(), smtp.getOutputStream());
        }
      } catch (IOException e) {
        // the client went away; the test sees it through the mailer's counts
      }
    }

    private static OutputStream outOf(Socket socket) {
      try {
        return socket.getOutputStream();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    private static void pipe(InputStream from, OutputStream to) {
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = from.read(buffer)) != -1; ) {
          to.write(buffer, 0, n);
          to.flush();
        }
      } catch (IOException e) {
        // one side closed
      }
    }

    private static void write(OutputStream out, String reply) throws IOException {
      out.write((reply + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
