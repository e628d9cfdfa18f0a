package dev.flipper.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The folder of certificates a deployment shares ({@code security.certificates}): the authority's
 * {@code ca.pem} (every host needs it) and {@code ca.key} (keep it off the servers once the
 * certificates are issued), and {@code <name>.pem} with {@code <name>.key} for each holder. The
 * daemons use the certificate named as their mode ({@code master}, {@code queue}, {@code workers},
 * {@code scheduler}, {@code ui}); commands use {@code operator} unless told otherwise. Keys are
 * written readable by their owner only. Thread-safe (the file system is the state).
 */
public final class TlsFolder {
  public static final String AUTHORITY = "ca";

  /** The certificates {@link #init} issues, by file name, and the role each carries. */
  public static final Map<String, Role> STANDARD = standard();

  /** Names every certificate {@link #init} issues is valid for, besides the hosts given. */
  public static final List<String> LOCAL_HOSTS = List.of("localhost", "127.0.0.1", "::1");

  private final Path dir;

  private TlsFolder(Path dir) {
    this.dir = Objects.requireNonNull(dir, "dir");
  }

  public static TlsFolder at(Path dir) {
    return new TlsFolder(dir);
  }

  public Path dir() {
    return dir;
  }

  public Path certificate(String name) {
    return dir.resolve(name + ".pem");
  }

  public Path key(String name) {
    return dir.resolve(name + ".key");
  }

  /**
   * A new authority and the {@link #STANDARD} certificates, valid for {@code hosts} and {@link
   * #LOCAL_HOSTS}. FileAlreadyExistsException if the folder already holds an authority: issuing a
   * second one would lock out every holder of the first.
   */
  public static TlsFolder init(Path dir, List<String> hosts, Clock clock)
      throws IOException, GeneralSecurityException {
    TlsFolder folder = new TlsFolder(dir);
    if (Files.exists(folder.certificate(AUTHORITY))) {
      throw new FileAlreadyExistsException(
          folder.certificate(AUTHORITY).toString(),
          null,
          "the folder already holds an authority; issue more certificates with `flipper tls issue`");
    }
    Files.createDirectories(dir);
    CertificateAuthority authority =
        CertificateAuthority.create(
            "Flipper CA " + clock.instant(), CertificateAuthority.DEFAULT_CA_VALIDITY, clock);
    folder.write(AUTHORITY, authority.own());
    for (Map.Entry<String, Role> holder : STANDARD.entrySet()) {
      folder.issue(authority, holder.getKey(), holder.getValue(), hosts);
    }
    return folder;
  }

  /**
   * Issues {@code name}'s certificate with the folder's authority and writes it (replacing any).
   */
  public IssuedCertificate issue(String name, Role role, List<String> hosts, Clock clock)
      throws IOException, GeneralSecurityException {
    return issue(authority(clock), name, role, hosts);
  }

  /** The authority whose {@code ca.pem} and {@code ca.key} are in the folder. */
  public CertificateAuthority authority(Clock clock) throws IOException {
    return CertificateAuthority.of(read(AUTHORITY), clock);
  }

  /**
   * {@code name}'s side of mutual TLS, trusting the folder's authority. IOException naming the
   * missing or unreadable file, or the certificate that has expired.
   */
  public TlsIdentity identity(String name) throws IOException, GeneralSecurityException {
    IssuedCertificate own = read(name);
    X509Certificate authority = Pem.certificates(existing(certificate(AUTHORITY))).get(0);
    checkValid(certificate(name), own.certificate());
    checkValid(certificate(AUTHORITY), authority);
    try {
      own.certificate().verify(authority.getPublicKey());
    } catch (GeneralSecurityException e) {
      throw new IOException(
          certificate(name) + " was not issued by the authority in " + certificate(AUTHORITY), e);
    }
    return TlsIdentity.of(own, authority);
  }

  private IssuedCertificate issue(
      CertificateAuthority authority, String name, Role role, List<String> hosts)
      throws IOException, GeneralSecurityException {
    List<String> names = new ArrayList<>(LOCAL_HOSTS);
    hosts.stream().filter(host -> !names.contains(host)).forEach(names::add);
    IssuedCertificate issued =
        authority.issue(name, role, names, CertificateAuthority.DEFAULT_VALIDITY);
    write(name, issued);
    return issued;
  }

  private void write(String name, IssuedCertificate issued)
      throws IOException, GeneralSecurityException {
    Files.writeString(
        certificate(name), Pem.encode(issued.certificate()), StandardCharsets.US_ASCII);
    Path key = key(name);
    Files.deleteIfExists(key);
    Files.createFile(key);
    try {
      Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException notPosix) {
      // Windows: the folder's ACL decides
    }
    Files.writeString(key, Pem.encode(issued.key()), StandardCharsets.US_ASCII);
  }

  private IssuedCertificate read(String name) throws IOException {
    return new IssuedCertificate(
        Pem.certificates(existing(certificate(name))).get(0), Pem.privateKey(existing(key(name))));
  }

  private Path existing(Path file) throws NoSuchFileException {
    if (!Files.isReadable(file)) {
      throw new NoSuchFileException(
          file.toString(),
          null,
          "no such readable file; make the certificates with `flipper tls init --dir "
              + dir
              + "` (docs/security.md)");
    }
    return file;
  }

  private static void checkValid(Path file, X509Certificate certificate) throws IOException {
    try {
      certificate.checkValidity(new Date());
    } catch (CertificateExpiredException | CertificateNotYetValidException e) {
      throw new IOException(
          file
              + " is valid from "
              + certificate.getNotBefore().toInstant()
              + " to "
              + certificate.getNotAfter().toInstant()
              + " only; issue a new one with `flipper tls issue`",
          e);
    }
  }

  private static Map<String, Role> standard() {
    Map<String, Role> standard = new LinkedHashMap<>();
    standard.put("master", Role.MASTER);
    standard.put("queue", Role.QUEUE);
    standard.put("workers", Role.WORKER);
    standard.put("scheduler", Role.SCHEDULER);
    standard.put("ui", Role.UI);
    standard.put("operator", Role.OPERATOR);
    standard.put("admin", Role.ADMIN);
    standard.put("app", Role.APP);
    return Collections.unmodifiableMap(standard); // in this order: init lists them so
  }
}
