package dev.flipper.launcher;

import dev.flipper.config.FlipperConfig;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.util.function.Function;

/**
 * A mode's daemon together with how to pick its own settings out of a whole config, so that a
 * changed config file reaches {@link Daemon#reconfigure} as the daemon's own settings type, and the
 * client of the master the launcher opened for it, if any (the daemon is given it as a {@code
 * TokenMaster} and does not close it). Immutable.
 *
 * @param masterClient the client opened for the daemon; null = none
 */
record ModeDaemon<S>(
    Daemon<S> daemon, Function<FlipperConfig, S> settings, TokenMasterClient masterClient) {

  ModeDaemon(Daemon<S> daemon, Function<FlipperConfig, S> settings) {
    this(daemon, settings, null);
  }

  void reconfigure(FlipperConfig config) {
    daemon.reconfigure(settings.apply(config));
  }

  /**
   * Closes the daemon, then the client of the master opened for it. First the client's claims
   * waiting in the master are cut short, so loops blocked in one stop at once rather than at the
   * end of the wait; the client still serves the daemon's other calls while it stops (a stopping
   * worker hands its jobs back). Never throws.
   */
  void close() {
    if (masterClient != null) {
      masterClient.stopWaiting();
    }
    daemon.close();
    if (masterClient != null) {
      masterClient.close();
    }
  }
}
