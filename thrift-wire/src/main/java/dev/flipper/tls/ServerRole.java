package dev.flipper.tls;

import java.net.http.HttpResponse;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Checks whom an HTTPS client reached: the host-name check proves the server's address, this its
 * role, so that, say, the UI shows logs only from a workers process and not from another service on
 * a worker's host. Stateless.
 */
public final class ServerRole {
  private ServerRole() {}

  /**
   * SSLPeerUnverifiedException unless {@code response} came over TLS from a server whose
   * certificate carries {@code expected}.
   */
  public static void require(HttpResponse<?> response, Role expected)
      throws SSLPeerUnverifiedException {
    String server = response.uri().getHost() + ":" + response.uri().getPort();
    SSLSession session =
        response
            .sslSession()
            .orElseThrow(
                () ->
                    new SSLPeerUnverifiedException(
                        server + " answered without TLS; a " + expected.label() + " needs it"));
    Certificate[] chain = session.getPeerCertificates();
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
      throw new SSLPeerUnverifiedException(server + " sent no X.509 certificate");
    }
    Subject subject = Subject.of(certificate);
    if (subject.role() != expected) {
      throw new SSLPeerUnverifiedException(
          server
              + " presented the certificate of "
              + subject.role().label()
              + " \""
              + subject.name()
              + "\", not one of role "
              + expected.label());
    }
  }
}
