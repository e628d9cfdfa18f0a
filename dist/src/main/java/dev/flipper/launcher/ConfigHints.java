package dev.flipper.launcher;

import dev.flipper.launcher.workflow.MasterOptions;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The line a failed command adds when it could not reach the token master: which config named the
 * address (a command without {@code -c} may have found another config than the user thought, or
 * none), and how to name another. Stateless.
 */
final class ConfigHints {
  private ConfigHints() {}

  /** A hint for {@code failure} of the command {@code command}, if it is an unreachable master. */
  static Optional<String> forUnreachableMaster(Exception failure, CommandLine command) {
    if (!(failure instanceof TokenException e)
        || e.errorCode() != TokenErrorCode.UNKNOWN
        || e.getMessage() == null
        || !e.getMessage().startsWith("cannot reach the token master")) {
      return Optional.empty();
    }
    return command.getMixins().values().stream()
        .filter(MasterOptions.class::isInstance)
        .map(MasterOptions.class::cast)
        .findFirst()
        .map(
            options ->
                "the master's port came from "
                    + options.configSource().describe()
                    + "; give -c FILE, set FLIPPER_CONFIG, or use --host and --set master.port=PORT");
  }
}
