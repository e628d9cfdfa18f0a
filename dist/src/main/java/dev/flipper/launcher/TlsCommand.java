package dev.flipper.launcher;

import dev.flipper.tls.Role;
import dev.flipper.tls.TlsFolder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flipper tls init|issue}: makes the deployment's own certificate authority and the
 * certificates of its daemons and people ({@link TlsFolder}), for {@code security.tls}.
 */
@Command(
    name = "tls",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Makes the certificates for security.tls: a deployment's own authority and one per holder.",
      "See docs/security.md for the secure setup step by step."
    },
    subcommands = {TlsCommand.Init.class, TlsCommand.Issue.class})
final class TlsCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return Launcher.EXIT_USAGE;
  }

  /** {@code flipper tls init}: the authority and the standard certificates. */
  @Command(
      name = "init",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Creates a certificate authority and the certificates of every daemon and role.",
        "Writes ca.pem and ca.key, then NAME.pem and NAME.key for master, queue, workers,"
            + " scheduler, ui, operator, admin and app, each valid for localhost, 127.0.0.1, ::1"
            + " and every --host. Refuses a folder that already holds an authority."
      },
      footer = {
        "",
        "Example:",
        "  flipper tls init --dir /etc/flipper/tls --host flipper1.example.com"
      })
  static final class Init implements Callable<Integer> {
    @Option(
        names = "--dir",
        required = true,
        paramLabel = "DIR",
        description = "The folder to write (security.certificates); created if missing.")
    Path dir;

    @Option(
        names = "--host",
        paramLabel = "HOST",
        description =
            "A name or address clients dial to reach the daemons (checked against the"
                + " certificate). Repeatable.")
    List<String> hosts = new ArrayList<>();

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, GeneralSecurityException {
      PrintWriter out = spec.commandLine().getOut();
      try {
        TlsFolder.init(dir, hosts, Clock.systemUTC());
      } catch (FileAlreadyExistsException e) {
        spec.commandLine().getErr().println("flipper: " + e.getFile() + ": " + e.getReason());
        return 1;
      }
      out.println("Wrote the authority " + dir.resolve("ca.pem") + " (and its key ca.key) and:");
      TlsFolder.STANDARD.forEach(
          (name, role) ->
              out.printf("  %-10s role %-9s %s%n", name, role.label(), dir.resolve(name + ".pem")));
      out.println("Valid for " + String.join(", ", validFor(hosts)) + ".");
      out.println("Next: copy the folder to every host (keep ca.key off the servers), then set");
      out.println("  security: {tls: true, certificates: " + dir.toAbsolutePath() + "}");
      out.println("in each flipper.yaml and restart the daemons (docs/security.md).");
      return 0;
    }
  }

  /** {@code flipper tls issue}: one more certificate from the folder's authority. */
  @Command(
      name = "issue",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Issues one more certificate from the authority in a folder, e.g. for a person or a host.",
        "Writes NAME.pem and NAME.key (replacing them), valid for localhost, 127.0.0.1, ::1 and"
            + " every --host; the folder needs ca.pem and ca.key."
      },
      footer = {
        "",
        "Example:",
        "  flipper tls issue --dir /etc/flipper/tls --name alice --role admin"
      })
  static final class Issue implements Callable<Integer> {
    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "The folder.")
    Path dir;

    @Option(
        names = "--name",
        required = true,
        paramLabel = "NAME",
        description = "The holder: the certificate's name (CN) and its files' name.")
    String name;

    @Option(
        names = "--role",
        required = true,
        paramLabel = "ROLE",
        description =
            "What the holder may do: master, queue, worker, scheduler, ui, operator, admin or app.")
    String role;

    @Option(
        names = "--host",
        paramLabel = "HOST",
        description = "A name or address the holder serves on, if it serves. Repeatable.")
    List<String> hosts = new ArrayList<>();

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, GeneralSecurityException {
      Role parsed;
      try {
        parsed = Role.parse(role);
      } catch (IllegalArgumentException e) {
        return Launcher.usageError(spec.commandLine().getErr(), "tls issue: " + e.getMessage());
      }
      if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
        return Launcher.usageError(
            spec.commandLine().getErr(),
            "tls issue: --name \"" + name + "\" must be letters, digits, '.', '_' or '-'");
      }
      TlsFolder.at(dir).issue(name, parsed, hosts, Clock.systemUTC());
      PrintWriter out = spec.commandLine().getOut();
      out.println(
          "Wrote "
              + dir.resolve(name + ".pem")
              + " and "
              + dir.resolve(name + ".key")
              + " (role "
              + parsed.label()
              + ", valid for "
              + String.join(", ", validFor(hosts))
              + ").");
      out.println(
          "Next: give both files and ca.pem to the holder; a command presents it with"
              + " security.identity: "
              + name
              + ".");
      return 0;
    }
  }

  private static List<String> validFor(List<String> hosts) {
    List<String> names = new ArrayList<>(TlsFolder.LOCAL_HOSTS);
    hosts.stream().filter(host -> !names.contains(host)).forEach(names::add);
    return names;
  }
}
