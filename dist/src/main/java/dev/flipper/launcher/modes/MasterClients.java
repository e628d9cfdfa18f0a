package dev.flipper.launcher.modes;

import dev.flipper.tls.TlsIdentity;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.time.Duration;
import java.util.Optional;

/**
 * Opens the Thrift clients of the master that the scheduler, the workers, the UI and the commands
 * are given. Their modules take any {@code TokenMaster} and build no client: the launcher opens it
 * here, as it opens the stores, and closes it after the daemon. With {@code security.tls} each
 * presents its certificate ({@code tls}: the daemon's or the command's identity). The daemons'
 * return null for port 0 (master.port 0 and no master in this JVM): nothing to connect to.
 */
public final class MasterClients {
  private MasterClients() {}

  /**
   * For the scheduler and the workers: a call fails within seconds when the master is away (3
   * connection attempts, a backoff of 1 s at most). The scheduler's loop tries again after a
   * second, and a claimed schedule is safe behind its lease; the workers' slots and lease keepers
   * retry on their own, bounded by the lease, and must not sit in a long reconnect backoff
   * meanwhile.
   */
  public static TokenMasterClient reconnecting(String host, int port, Optional<TlsIdentity> tls) {
    return port == 0
        ? null
        : withTls(
                TokenMasterClient.builder(host, port)
                    .connectAttempts(3)
                    .maxBackoff(Duration.ofSeconds(1)),
                tls)
            .build();
  }

  /**
   * For the UI: one quick connection attempt per call (2 s connect time-out, a backoff of 1 s at
   * most), so a page answers "master unreachable" within seconds instead of waiting out a reconnect
   * backoff.
   */
  public static TokenMasterClient quick(String host, int port, Optional<TlsIdentity> tls) {
    return port == 0
        ? null
        : withTls(
                TokenMasterClient.builder(host, port)
                    .connectAttempts(1)
                    .connectTimeout(Duration.ofSeconds(2))
                    .maxBackoff(Duration.ofSeconds(1)),
                tls)
            .build();
  }

  /** For a command ({@code flipper workflow ...}, {@code flipper tokens ...}): 3 attempts. */
  public static TokenMasterClient forCommand(String host, int port, Optional<TlsIdentity> tls) {
    return withTls(TokenMasterClient.builder(host, port).connectAttempts(3), tls).build();
  }

  private static TokenMasterClient.Builder withTls(
      TokenMasterClient.Builder builder, Optional<TlsIdentity> tls) {
    tls.ifPresent(builder::tls);
    return builder;
  }
}
