package dev.flipper.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/** A certificate and its private key, as the authority issued them. Immutable. */
public record IssuedCertificate(X509Certificate certificate, PrivateKey key) {
  public IssuedCertificate {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(key, "key");
  }
}
