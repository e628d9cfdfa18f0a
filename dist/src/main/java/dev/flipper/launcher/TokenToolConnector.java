package dev.flipper.launcher;

import dev.flipper.config.ConfigLocator;
import dev.flipper.launcher.modes.MasterClients;
import dev.flipper.workflow.master.cli.TokenTool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code flipper tokens}: the token tool connecting with the command identity of the config the
 * daemons use ({@code $FLIPPER_CONFIG}, {@code ./flipper.yaml}, the user's config directory or the
 * defaults: {@link ConfigLocator}), so that it presents the {@code security.identity} certificate
 * to a master with TLS. Stateless.
 */
final class TokenToolConnector {
  private TokenToolConnector() {}

  static TokenTool tool() {
    return new TokenTool(
        (host, port) ->
            MasterClients.forCommand(
                host,
                port,
                ConfigLocator.locate(null)
                    .load(List.of(), System.getenv())
                    .security()
                    .commandIdentity()),
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
  }
}
