package dev.flipper.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsFolderTest {
  @TempDir Path dir;

  @Test
  void initIssuesEveryStandardCertificateWithItsRoleAndKeysOnlyTheOwnerReads() throws Exception {
    TlsFolder folder = TlsFolder.init(dir, List.of("master.example.com"), Clock.systemUTC());

    for (var holder : TlsFolder.STANDARD.entrySet()) {
      TlsIdentity identity = folder.identity(holder.getKey());
      assertThat(identity.subject()).isEqualTo(new Subject(holder.getValue(), holder.getKey()));
      assertThat(
              PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(folder.key(holder.getKey()))))
          .isEqualTo("rw-------");
    }
    assertThat(Files.readString(folder.certificate("master")))
        .startsWith("-----BEGIN CERTIFICATE-----");
  }

  @Test
  void initRefusesAFolderThatHoldsAnAuthority() throws Exception {
    TlsFolder.init(dir, List.of(), Clock.systemUTC());

    assertThatThrownBy(() -> TlsFolder.init(dir, List.of(), Clock.systemUTC()))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining("flipper tls issue");
  }

  @Test
  void aMissingCertificateSaysHowToMakeOne() {
    assertThatThrownBy(() -> TlsFolder.at(dir).identity("workers"))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("workers.pem")
        .hasMessageContaining("flipper tls init --dir " + dir);
  }

  @Test
  void theServerLearnsTheClientsRoleFromItsCertificate() throws Exception {
    TlsFolder folder = TlsFolder.init(dir, List.of(), Clock.systemUTC());
    issueAndExpect(folder, folder.identity("workers"), new Subject(Role.WORKER, "workers"));
  }

  @Test
  void aCertificateIssuedLaterByTheSameAuthorityIsAccepted() throws Exception {
    TlsFolder folder = TlsFolder.init(dir, List.of(), Clock.systemUTC());
    folder.issue("host7", Role.WORKER, List.of("host7.example.com"), Clock.systemUTC());
    issueAndExpect(folder, folder.identity("host7"), new Subject(Role.WORKER, "host7"));
  }

  @Test
  void aClientOfAnotherAuthorityIsRefused(@TempDir Path other) throws Exception {
    TlsFolder folder = TlsFolder.init(dir, List.of(), Clock.systemUTC());
    TlsIdentity stranger = TlsFolder.init(other, List.of(), Clock.systemUTC()).identity("admin");

    try (SSLServerSocket server = folder.identity("master").listen(loopback(), 8)) {
      CompletableFuture<Object> accepted = acceptOne(server);
      // the client distrusts the server as the server distrusts it: whichever side stops first
      assertThatThrownBy(() -> stranger.connect("127.0.0.1", server.getLocalPort(), 5_000).close())
          .isInstanceOf(IOException.class);
      assertThat(accepted.get(10, TimeUnit.SECONDS)).isInstanceOf(SSLException.class);
    }
  }

  @Test
  void aClientWithoutACertificateIsRefused() throws Exception {
    TlsFolder folder = TlsFolder.init(dir, List.of(), Clock.systemUTC());
    try (SSLServerSocket server = folder.identity("master").listen(loopback(), 8)) {
      CompletableFuture<Object> accepted = acceptOne(server);
      try (Socket plain = new Socket("127.0.0.1", server.getLocalPort())) {
        plain.getOutputStream().write("hello, no TLS here\n".getBytes());
        plain.setSoTimeout(5_000);
        assertThat(plain.getInputStream().read()).isIn(-1, 0x15); // closed, or a TLS alert
      } catch (IOException reset) {
        // the server may reset the connection instead
      }
      assertThat(accepted.get(10, TimeUnit.SECONDS)).isInstanceOf(SSLException.class);
    }
  }

  @Test
  void theClientChecksThatTheServersCertificateNamesTheHostDialled() throws Exception {
    TlsFolder folder = TlsFolder.init(dir, List.of(), Clock.systemUTC());
    // 127.0.0.2 is this machine too, but no certificate names it
    try (SSLServerSocket server =
        folder.identity("master").listen(new InetSocketAddress("127.0.0.2", 0), 8)) {
      acceptOne(server);
      assertThatThrownBy(
              () -> folder.identity("operator").connect("127.0.0.2", server.getLocalPort(), 5_000))
          .isInstanceOf(SSLException.class)
          .hasMessageContaining("127.0.0.2");
    }
  }

  @Test
  void theListenRuleKeepsAPlainDaemonOnLoopbackUnlessInsecureIsSet() {
    ListenRule.check("the master", "127.0.0.1", false, false);
    ListenRule.check("the master", "0.0.0.0", true, false);
    ListenRule.check("the master", "0.0.0.0", false, true);

    assertThatThrownBy(() -> ListenRule.check("the master", "0.0.0.0", false, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the master would listen on 0.0.0.0 without TLS")
        .hasMessageContaining("security.insecure: true");
  }

  private void issueAndExpect(TlsFolder folder, TlsIdentity client, Subject expected)
      throws Exception {
    try (SSLServerSocket server = folder.identity("master").listen(loopback(), 8)) {
      CompletableFuture<Object> accepted = acceptOne(server);
      try (SSLSocket socket = client.connect("127.0.0.1", server.getLocalPort(), 5_000)) {
        assertThat(accepted.get(10, TimeUnit.SECONDS)).isInstanceOf(Peer.class);
        Peer peer = (Peer) accepted.get();
        assertThat(peer.subject()).isEqualTo(expected);
        assertThat(peer.address()).isEqualTo(InetAddress.getLoopbackAddress());
      }
    }
  }

  /**
   * The accepted peer, or the exception its handshake failed with; completed before the server's
   * side closes, since closing a TLS socket waits for the client's close_notify.
   */
  private static CompletableFuture<Object> acceptOne(SSLServerSocket server) {
    CompletableFuture<Object> outcome = new CompletableFuture<>();
    CompletableFuture.runAsync(
        () -> {
          try (SSLSocket socket = (SSLSocket) server.accept()) {
            socket.setSoTimeout(5_000);
            socket.startHandshake();
            outcome.complete(Peer.of(socket.getSession(), socket.getInetAddress()));
            socket.getInputStream().read();
          } catch (IOException e) {
            outcome.complete(e);
          }
        });
    return outcome;
  }

  private static InetSocketAddress loopback() {
    return new InetSocketAddress("127.0.0.1", 0);
  }
}
