package dev.flipper.tls;

import java.security.cert.X509Certificate;
import java.util.Objects;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;

/** Whom a certificate names: its role (the subject's {@code OU}) and name ({@code CN}). */
public record Subject(Role role, String name) {
  public Subject {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(name, "name");
  }

  /** SSLPeerUnverifiedException if the certificate's subject has no name or no known role. */
  public static Subject of(X509Certificate certificate) throws SSLPeerUnverifiedException {
    String subject = certificate.getSubjectX500Principal().getName();
    try {
      String role = null;
      String name = null;
      for (Rdn rdn : new LdapName(subject).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("OU")) {
          role = rdn.getValue().toString();
        } else if (rdn.getType().equalsIgnoreCase("CN")) {
          name = rdn.getValue().toString();
        }
      }
      if (role == null || name == null) {
        throw new SSLPeerUnverifiedException(
            "certificate \"" + subject + "\" names no role (OU) or no name (CN)");
      }
      return new Subject(Role.parse(role), name);
    } catch (InvalidNameException | IllegalArgumentException e) {
      throw new SSLPeerUnverifiedException(
          "certificate \"" + subject + "\" has no usable role: " + e.getMessage());
    }
  }
}
