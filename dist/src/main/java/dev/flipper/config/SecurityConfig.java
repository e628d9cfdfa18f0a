package dev.flipper.config;

import dev.flipper.tls.ListenRule;
import dev.flipper.tls.TlsFolder;
import dev.flipper.tls.TlsIdentity;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Optional;

/**
 * The {@code security} section: whether every port speaks mutual TLS, where the certificates are,
 * which one commands present, and whether plain ports may face the network. Immutable.
 *
 * @param tls every port speaks mutual TLS
 * @param certificates the {@link TlsFolder} ("" when TLS is off)
 * @param identity the certificate commands present; "" = {@value #COMMAND_IDENTITY}
 * @param insecure daemons may listen on a non-loopback address without TLS
 */
public record SecurityConfig(boolean tls, String certificates, String identity, boolean insecure) {
  /** No TLS, loopback only: what Pinball and PinLater did, and the default. */
  public static final SecurityConfig OFF = new SecurityConfig(false, "", "", false);

  /** The certificate commands present unless {@code security.identity} names another. */
  public static final String COMMAND_IDENTITY = "operator";

  /**
   * The TLS identity a daemon presents: the certificate named as its mode ({@code master}, {@code
   * workers}, ...); empty when TLS is off. ConfigException naming the file when it cannot be read.
   */
  public Optional<TlsIdentity> daemonIdentity(String mode) {
    return load(mode);
  }

  /** The identity commands present: {@code security.identity}, else {@value #COMMAND_IDENTITY}. */
  public Optional<TlsIdentity> commandIdentity() {
    return load(identity.isEmpty() ? COMMAND_IDENTITY : identity);
  }

  private Optional<TlsIdentity> load(String name) {
    if (!tls) {
      return Optional.empty();
    }
    try {
      return Optional.of(TlsFolder.at(Path.of(certificates)).identity(name));
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(
          "security.tls is true but the certificate \""
              + name
              + "\" cannot be used: "
              + e.getMessage());
    }
  }

  /**
   * IllegalStateException when {@code daemon} may not listen on {@code bindAddress} (ListenRule).
   */
  public void checkListen(String daemon, String bindAddress) {
    ListenRule.check(daemon, bindAddress, tls, insecure);
  }
}
