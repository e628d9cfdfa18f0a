package dev.flipper.launcher;

import dev.flipper.config.FlipperConfig;
import dev.flipper.lifecycle.Daemon;
import java.util.function.Function;

/**
 * A mode's daemon together with how to pick its own settings out of a whole config, so that a changed
 * config file reaches {@link Daemon#reconfigure} as the daemon's own settings type. Immutable.
 */
record ModeDaemon<S>(Daemon<S> daemon, Function<FlipperConfig, S> settings) {

  void reconfigure(FlipperConfig config) {
    daemon.reconfigure(settings.apply(config));
  }
}
