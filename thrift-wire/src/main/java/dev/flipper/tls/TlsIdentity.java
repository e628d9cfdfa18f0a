package dev.flipper.tls;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * One daemon's, tool's or application's side of mutual TLS: its own certificate and key, and the
 * deployment's authority, the only issuer it trusts. Servers made here demand a client certificate;
 * clients check the server's certificate and that it names the host they dialled. TLS 1.3 and 1.2
 * only. Thread-safe and immutable.
 *
 * <pre>{@code
 * TlsIdentity tls = TlsFolder.at(dir).identity("master");
 * ServerSocket listening = tls.listen(new InetSocketAddress("0.0.0.0", 9090), 128);
 * }</pre>
 */
public final class TlsIdentity {
  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
  private static final char[] NO_PASSWORD = new char[0];

  private final SSLContext context;
  private final Subject subject;

  private TlsIdentity(SSLContext context, Subject subject) {
    this.context = context;
    this.subject = subject;
  }

  /** The identity of {@code own}, trusting only certificates {@code authority} signed. */
  public static TlsIdentity of(IssuedCertificate own, X509Certificate authority)
      throws GeneralSecurityException {
    Objects.requireNonNull(own, "own");
    Objects.requireNonNull(authority, "authority");
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "own", own.key(), NO_PASSWORD, new X509Certificate[] {own.certificate(), authority});
      KeyManagerFactory keyManagers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, NO_PASSWORD);

      KeyStore trusted = KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      trusted.setCertificateEntry("authority", authority);
      TrustManagerFactory trustManagers =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trustManagers.init(trusted);

      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
      return new TlsIdentity(context, Subject.of(own.certificate()));
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot hold the certificate in a key store", e);
    }
  }

  /** Whom this identity's certificate names. */
  public Subject subject() {
    return subject;
  }

  /** For servers and clients built elsewhere (Jetty, the JDK's HttpClient). */
  public SSLContext context() {
    return context;
  }

  /** Parameters for a server: TLS 1.3/1.2, a client certificate required. */
  public SSLParameters serverParameters() {
    SSLParameters parameters = context.getDefaultSSLParameters();
    parameters.setProtocols(PROTOCOLS);
    parameters.setNeedClientAuth(true);
    return parameters;
  }

  /** Parameters for a client: TLS 1.3/1.2, the server's certificate must name the host dialled. */
  public SSLParameters clientParameters() {
    SSLParameters parameters = context.getDefaultSSLParameters();
    parameters.setProtocols(PROTOCOLS);
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    return parameters;
  }

  /** A bound server socket whose connections must present a certificate of the authority. */
  public SSLServerSocket listen(InetSocketAddress address, int backlog) throws IOException {
    SSLServerSocket socket =
        (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
    socket.setSSLParameters(serverParameters());
    socket.setReuseAddress(true);
    socket.bind(address, backlog);
    return socket;
  }

  /**
   * A connected socket that has completed its handshake, so a wrong certificate fails here with the
   * reason rather than in the first call. SSLException names the host when the handshake fails.
   */
  public SSLSocket connect(String host, int port, int timeoutMillis) throws IOException {
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
    try {
      socket.setSSLParameters(clientParameters());
      socket.connect(new InetSocketAddress(host, port), timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      socket.startHandshake();
      socket.setSoTimeout(0);
      return socket;
    } catch (SocketTimeoutException e) {
      socket.close();
      throw e;
    } catch (SSLException e) {
      socket.close();
      throw new SSLException(
          "TLS handshake with " + host + ":" + port + " failed: " + e.getMessage(), e);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  /** An engine for a non-blocking server's connection: a client certificate required. */
  public SSLEngine serverEngine() {
    SSLEngine engine = context.createSSLEngine();
    engine.setUseClientMode(false);
    engine.setSSLParameters(serverParameters());
    return engine;
  }
}
