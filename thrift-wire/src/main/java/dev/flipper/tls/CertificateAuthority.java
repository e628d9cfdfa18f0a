package dev.flipper.tls;

import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A deployment's own certificate authority: it signs the certificate of every daemon, tool and
 * application, and every port trusts what it signed and nothing else. Keys are EC P-256, signatures
 * SHA-256 with ECDSA. Not thread-safe.
 */
public final class CertificateAuthority {
  /** How long the authority's own certificate is valid. */
  public static final Duration DEFAULT_CA_VALIDITY = Duration.ofDays(3650);

  /** How long issued certificates are valid: rotate them with {@code flipper tls issue}. */
  public static final Duration DEFAULT_VALIDITY = Duration.ofDays(825);

  private static final String SIGNATURE = "SHA256withECDSA";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final IssuedCertificate own;
  private final Clock clock;

  private CertificateAuthority(IssuedCertificate own, Clock clock) {
    this.own = own;
    this.clock = clock;
  }

  /** A new authority named {@code name} (its certificate's CN), valid from now on. */
  public static CertificateAuthority create(String name, Duration validity, Clock clock)
      throws GeneralSecurityException {
    KeyPair keys = newKeyPair();
    X500Name subject =
        new X500NameBuilder(BCStyle.INSTANCE)
            .addRDN(BCStyle.O, "Flipper")
            .addRDN(BCStyle.CN, name)
            .build();
    Instant now = clock.instant();
    try {
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
                  subject,
                  serial(),
                  notBefore(now),
                  Date.from(now.plus(validity)),
                  subject,
                  keys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(
                  Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  extensions.createSubjectKeyIdentifier(keys.getPublic()));
      X509Certificate certificate = sign(builder, keys.getPrivate());
      return new CertificateAuthority(new IssuedCertificate(certificate, keys.getPrivate()), clock);
    } catch (CertIOException e) {
      throw new GeneralSecurityException("cannot build the authority's certificate", e);
    }
  }

  /** The authority whose certificate and key these are (read back from a {@link TlsFolder}). */
  public static CertificateAuthority of(IssuedCertificate own, Clock clock) {
    return new CertificateAuthority(Objects.requireNonNull(own, "own"), clock);
  }

  public IssuedCertificate own() {
    return own;
  }

  /**
   * A certificate for {@code name} in {@code role}, usable both to serve and to connect (TLS server
   * and client authentication), valid for {@code hosts} (DNS names or IP addresses clients check
   * against the address they connect to).
   */
  public IssuedCertificate issue(String name, Role role, List<String> hosts, Duration validity)
      throws GeneralSecurityException {
    KeyPair keys = newKeyPair();
    X500Name subject =
        new X500NameBuilder(BCStyle.INSTANCE)
            .addRDN(BCStyle.O, "Flipper")
            .addRDN(BCStyle.OU, role.label())
            .addRDN(BCStyle.CN, name)
            .build();
    Instant now = clock.instant();
    try {
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
                  own.certificate(),
                  serial(),
                  notBefore(now),
                  Date.from(now.plus(validity)),
                  subject,
                  keys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
              .addExtension(
                  Extension.extendedKeyUsage,
                  false,
                  new ExtendedKeyUsage(
                      new KeyPurposeId[] {
                        KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                      }))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  extensions.createSubjectKeyIdentifier(keys.getPublic()))
              .addExtension(
                  Extension.authorityKeyIdentifier,
                  false,
                  extensions.createAuthorityKeyIdentifier(own.certificate()));
      if (!hosts.isEmpty()) {
        builder.addExtension(Extension.subjectAlternativeName, false, alternativeNames(hosts));
      }
      return new IssuedCertificate(sign(builder, own.key()), keys.getPrivate());
    } catch (CertIOException e) {
      throw new GeneralSecurityException("cannot build the certificate of " + name, e);
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(key)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("cannot sign with " + SIGNATURE, e);
    }
  }

  private static GeneralNames alternativeNames(List<String> hosts) {
    List<GeneralName> names = new ArrayList<>();
    for (String host : hosts) {
      names.add(
          isIpAddress(host)
              ? new GeneralName(GeneralName.iPAddress, host)
              : new GeneralName(GeneralName.dNSName, host));
    }
    return new GeneralNames(names.toArray(GeneralName[]::new));
  }

  /** An IP literal (checked without a DNS lookup: getByName of a literal resolves nothing). */
  private static boolean isIpAddress(String host) {
    if (!host.matches("[0-9.]+|[0-9a-fA-F:]+") || !host.matches(".*[.:].*")) {
      return false;
    }
    try {
      InetAddress.getByName(host);
      return true;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return generator.generateKeyPair();
  }

  private static BigInteger serial() {
    return new BigInteger(127, RANDOM);
  }

  /** An hour early, so clocks a little behind the issuer's accept the certificate at once. */
  private static Date notBefore(Instant now) {
    return Date.from(now.minus(Duration.ofHours(1)));
  }
}
