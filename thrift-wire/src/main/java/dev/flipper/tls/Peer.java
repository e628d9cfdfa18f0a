package dev.flipper.tls;

import java.net.InetAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Objects;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Who is on the other end of a connection: what its verified certificate says ({@link Subject}) and
 * the address it connected from. Immutable.
 */
public record Peer(Subject subject, InetAddress address) {
  public Peer {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(address, "address");
  }

  /**
   * The peer of a TLS session whose handshake checked its certificate against the deployment's
   * authority. SSLPeerUnverifiedException when the peer sent no certificate, or one without a known
   * role.
   */
  public static Peer of(SSLSession session, InetAddress address) throws SSLPeerUnverifiedException {
    Certificate[] chain = session.getPeerCertificates();
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
      throw new SSLPeerUnverifiedException("the peer sent no X.509 certificate");
    }
    return new Peer(Subject.of(certificate), address);
  }

  public Role role() {
    return subject.role();
  }

  public String name() {
    return subject.name();
  }

  /** For logs: {@code worker "host7" from 10.0.0.7}. */
  @Override
  public String toString() {
    return role().label() + " \"" + name() + "\" from " + address.getHostAddress();
  }
}
