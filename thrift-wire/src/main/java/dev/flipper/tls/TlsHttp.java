package dev.flipper.tls;

import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The JDK HTTP client of the admin and log ports: with an identity it presents that certificate and
 * checks the server's, and an {@code http://} log URL written before TLS was on is read as {@code
 * https://}; without one, plain HTTP as before.
 */
public final class TlsHttp {
  private TlsHttp() {}

  /**
   * A client connecting within {@code connectTimeout}; mutual TLS as {@code identity} if not null.
   */
  public static HttpClient client(TlsIdentity identity, Duration connectTimeout) {
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(connectTimeout);
    if (identity != null) {
      builder.sslContext(identity.context()).sslParameters(identity.clientParameters());
    }
    return builder.build();
  }

  /** {@code url} with {@code https://} for {@code http://} when {@code identity} is not null. */
  public static String url(String url, TlsIdentity identity) {
    return identity != null && url.startsWith("http://")
        ? "https://" + url.substring("http://".length())
        : url;
  }
}
