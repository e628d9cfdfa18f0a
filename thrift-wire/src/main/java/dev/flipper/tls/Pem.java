package dev.flipper.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Reads and writes the PEM files of a {@link TlsFolder}: certificates ({@code CERTIFICATE}) and
 * unencrypted PKCS #8 private keys ({@code PRIVATE KEY}, EC or RSA), the forms openssl and every
 * TLS tool read. Errors name the file. Stateless.
 */
final class Pem {
  private static final String KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
  private static final String KEY_END = "-----END PRIVATE KEY-----";

  private Pem() {}

  /** Every certificate in {@code file}, in order (leaf first for a chain). */
  static List<X509Certificate> certificates(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    try {
      List<X509Certificate> certificates = new ArrayList<>();
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (var certificate : factory.generateCertificates(new ByteArrayInputStream(bytes))) {
        certificates.add((X509Certificate) certificate);
      }
      if (certificates.isEmpty()) {
        throw new IOException(file + " holds no PEM certificate");
      }
      return certificates;
    } catch (CertificateException e) {
      throw new IOException(file + " is not a PEM certificate file: " + e.getMessage(), e);
    }
  }

  static PrivateKey privateKey(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.US_ASCII);
    int begin = text.indexOf(KEY_BEGIN);
    int end = text.indexOf(KEY_END);
    if (begin < 0 || end < begin) {
      throw new IOException(
          file
              + " holds no unencrypted PKCS #8 key ("
              + KEY_BEGIN
              + "); convert one with"
              + " `openssl pkcs8 -topk8 -nocrypt`");
    }
    byte[] der =
        Base64.getMimeDecoder().decode(text.substring(begin + KEY_BEGIN.length(), end).strip());
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : List.of("EC", "RSA")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException notThisAlgorithm) {
        // try the next one
      }
    }
    throw new IOException(file + " holds a private key that is neither EC nor RSA");
  }

  static String encode(X509Certificate certificate) throws CertificateException {
    return block("CERTIFICATE", certificate.getEncoded());
  }

  static String encode(PrivateKey key) {
    return block("PRIVATE KEY", key.getEncoded());
  }

  private static String block(String type, byte[] der) {
    String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }
}
