package dev.flipper.launcher.workflow;

import dev.flipper.launcher.Launcher;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code flipper} command run in this JVM against a master on {@code port}, with what it
 * printed.
 */
record CommandRun(int code, String out, String err) {

  /** Runs {@code args} with {@code -c config --set master.port=port --host 127.0.0.1} appended. */
  static CommandRun of(Path config, int port, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> full = new ArrayList<>(List.of(args));
    full.addAll(
        List.of("-c", config.toString(), "--set", "master.port=" + port, "--host", "127.0.0.1"));
    int code =
        Launcher.execute(full.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    return new CommandRun(code, out.toString(), err.toString());
  }
}
