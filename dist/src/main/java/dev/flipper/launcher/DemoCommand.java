package dev.flipper.launcher;

import dev.flipper.config.ConfigException;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import dev.flipper.config.StorageBackend;
import dev.flipper.launcher.modes.MasterClients;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flipper demo}: every daemon in one JVM on the embedded store (H2 under ./data unless the
 * config says otherwise), then prints the URLs and what to try.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Runs every daemon in one JVM with the example workflows and prints what to try.",
      "Runs queue, master, scheduler, workers and ui in one JVM, applies the example workflows and starts "
          + "one etl instance (it runs to SUCCESS by itself).",
      "Without -c, uses the defaults: an embedded H2 database under ./data."
    })
final class DemoCommand implements Callable<Integer> {
  /** How a daemon's ready line names the port it serves, e.g. "thrift port 9010". */
  private static final Pattern THRIFT_PORT = Pattern.compile("thrift port (\\d+)");

  private static final String WEB_UI = "web UI ";

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "A YAML config file; default: the built-in defaults.")
  Path config;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "Overrides one config key. Repeatable.")
  List<String> sets = new ArrayList<>();

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    FlipperConfig loaded;
    if (config == null && sets.stream().noneMatch(s -> s.startsWith("workers.advertisedHost="))) {
      // Everything runs here: log URLs on loopback work even where the host name does not resolve.
      sets.add(0, "workers.advertisedHost=127.0.0.1");
    }
    try {
      loaded =
          config == null
              ? ConfigLoader.defaults(sets, System.getenv())
              : ConfigLoader.load(config, sets, System.getenv());
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return Launcher.EXIT_USAGE;
    }
    return DaemonRunner.run(
        loaded,
        config,
        sets,
        List.of(Mode.values()),
        out,
        err,
        running -> printHints(out, loaded, running));
  }

  private static void printHints(
      PrintWriter out, FlipperConfig config, List<ModeRunner.Running> running) {
    String store =
        config.storage().backend() == StorageBackend.JDBC
            ? config.storage().jdbc().shards().get(0).url()
            : "redis " + config.storage().redis().shards().get(0).host();
    out.println();
    out.println("Flipper demo: every daemon runs in this JVM; jobs are stored in " + store);
    out.println("Try:");
    for (ModeRunner.Running r : running) {
      out.printf(
          "  curl %-38s # %s: 200 when ready%n", r.adminUrl() + "/health", r.mode().modeName());
    }
    String queue = running.get(0).adminUrl();
    out.printf("  curl %-38s # queue metrics as name: value lines%n", queue + "/stats.txt");
    out.printf("  curl %-38s # the same in Prometheus format%n", queue + "/metrics");
    // "flipper" is ./flipper in a source checkout and bin/flipper in the distribution.
    String tool =
        "flipper queue-tool --host "
            + ModeRunner.reachableHost(config.queue().bindAddress())
            + " --port "
            + boundPort(running, Mode.QUEUE, config.queue().port());
    out.println("  " + tool + " --mode create --queue demo");
    out.println("  " + tool + " --mode enqueue --queue demo --num_queries 20 --batch_size 5");
    out.println("  " + tool + " --mode dequeue --queue demo --num_queries 5 --batch_size 10");
    out.println("  " + tool + " --mode get_job_count --queue demo --job_state 2   # 2 = SUCCEEDED");
    int masterPort = boundPort(running, Mode.MASTER, config.master().port());
    String masterHost = ModeRunner.reachableHost(config.master().bindAddress());
    out.println(
        "  flipper tokens --host "
            + masterHost
            + " --port "
            + masterPort
            + " ls /        # the token master");
    printWorkflowHints(
        out, masterHost, masterPort, config.security().commandIdentity(), webUi(running));
    out.println("(flipper is ./flipper in the source checkout, bin/flipper in the distribution)");
    out.println("Ctrl-C stops every daemon gracefully.");
    out.println();
  }

  /**
   * Applies the example workflows and starts one etl instance, which the workers run to SUCCESS by
   * themselves, then says how to look at it. A failure here is reported but does not stop the demo.
   */
  private static void printWorkflowHints(
      PrintWriter out,
      String masterHost,
      int masterPort,
      Optional<TlsIdentity> commandIdentity,
      String webUi) {
    String instance;
    try (TokenMasterClient master =
        MasterClients.forCommand(masterHost, masterPort, commandIdentity)) {
      instance = DemoWorkflows.applyAndStart(master);
    } catch (RuntimeException e) {
      out.println("  (the example workflows could not be started: " + e.getMessage() + ")");
      return;
    }
    String wf = DemoWorkflows.STARTED;
    String master = masterPort == 9090 ? "" : " --set master.port=" + masterPort;
    out.println(
        "Workflows etl, diamond and sensor are applied; etl instance "
            + instance
            + " is running and ends SUCCESS in a few seconds:");
    if (webUi != null) {
      out.println(
          "  open " + webUi + "workflows/" + wf + "/instances/" + instance + "   # in the web UI");
    }
    out.println("  flipper workflow status" + master + "                       # workflows");
    out.println(
        "  flipper workflow status -w "
            + wf
            + " -i "
            + instance
            + master
            + "   # its jobs, exit codes, log URLs");
    out.println(
        "  flipper workflow logs -w "
            + wf
            + " -i "
            + instance
            + " -j load"
            + master
            + "   # a job's output");
    out.println(
        "  flipper workflow start -w diamond --wait"
            + master
            + "          # another one, waiting for its end");
  }

  /** The web UI's address as the ui daemon names it ("web UI http://127.0.0.1:8080/"), or null. */
  private static String webUi(List<ModeRunner.Running> running) {
    return running.stream()
        .filter(r -> r.mode() == Mode.UI)
        .flatMap(r -> r.daemon().endpoints().stream())
        .filter(e -> e.startsWith(WEB_UI))
        .map(e -> e.substring(WEB_UI.length()))
        .findFirst()
        .orElse(null);
  }

  /**
   * The configured port, or for port 0 (a demo beside another one) the port the system chose, as
   * the daemon's ready line names it ("thrift port 41703").
   */
  private static int boundPort(List<ModeRunner.Running> running, Mode mode, int configured) {
    return running.stream()
        .filter(r -> configured == 0 && r.mode() == mode)
        .flatMap(r -> r.daemon().endpoints().stream())
        .map(THRIFT_PORT::matcher)
        .filter(Matcher::matches)
        .map(m -> Integer.parseInt(m.group(1)))
        .findFirst()
        .orElse(configured);
  }
}
