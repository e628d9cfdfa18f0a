package dev.flipper.launcher.modes;

import dev.flipper.workflow.master.client.TokenMasterClient;
import java.time.Duration;

/**
 * Opens the Thrift clients of the master that the scheduler, the workers and the UI are given.
 * Their modules take any {@code TokenMaster} and build no client: the launcher opens it here, as it
 * opens the stores, and closes it after the daemon. Each returns null for port 0 (master.port 0 and
 * no master in this JVM): nothing to connect to.
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
  public static TokenMasterClient reconnecting(String host, int port) {
    return port == 0
        ? null
        : TokenMasterClient.builder(host, port)
            .connectAttempts(3)
            .maxBackoff(Duration.ofSeconds(1))
            .build();
  }

  /**
   * For the UI: one quick connection attempt per call (2 s connect time-out, a backoff of 1 s at
   * most), so a page answers "master unreachable" within seconds instead of waiting out a reconnect
   * backoff.
   */
  public static TokenMasterClient quick(String host, int port) {
    return port == 0
        ? null
        : TokenMasterClient.builder(host, port)
            .connectAttempts(1)
            .connectTimeout(Duration.ofSeconds(2))
            .maxBackoff(Duration.ofSeconds(1))
            .build();
  }
}
