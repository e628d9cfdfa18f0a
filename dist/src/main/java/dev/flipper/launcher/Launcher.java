package dev.flipper.launcher;

import dev.flipper.config.ConfigException;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.ConfigLocator;
import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.logging.CliLogConfigurator;
import dev.flipper.launcher.logging.LoggingSetup;
import dev.flipper.launcher.queuetool.QueueTool;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code flipper} command: {@code flipper -c FILE -m MODE[,MODE...]} runs daemons until
 * SIGTERM; subcommands {@code demo}, {@code config-check} and {@code hash-password} do the rest.
 * Exit codes: 0 after a clean run or stop, 1 when a daemon failed, 2 for a bad command line or
 * config (only the error lines are printed, on stderr).
 */
@Command(
    name = "flipper",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Runs Flipper daemons: the queue server and the workflow master, scheduler, workers and UI.",
      "Several modes may share one JVM; each has its own admin port (/health, /metrics, /stats.txt)."
    },
    footer = {
      "",
      "Examples:",
      "  flipper -c conf/flipper.yaml -m queue",
      "  flipper -c conf/flipper.yaml -m master,scheduler --set master.port=9190",
      "  flipper config-check -c conf/flipper.yaml"
    })
// The subcommands are added by commandLine(args), not listed here: picocli builds the model of
// every
// listed subcommand up front, which loaded ~2,900 classes for `flipper --version`.
public final class Launcher implements Callable<Integer> {
  static final int EXIT_USAGE = 2;

  private static final String PICOCLI_NO_CLOSURES = "picocli.disable.closures";

  /** The subcommands' names, in the order of {@code flipper --help}. */
  static final List<String> SUBCOMMANDS =
      List.of(
          "demo",
          "config-check",
          "hash-password",
          "queue-tool",
          "tokens",
          "bench",
          "workflow",
          "tls");

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "The YAML config file, e.g. conf/flipper.yaml.")
  Path config;

  @Option(
      names = {"-m", "--mode"},
      paramLabel = "MODE[,MODE...]",
      description = "What to run: queue, master, scheduler, workers, ui, or all.")
  List<String> modes = new ArrayList<>();

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "Overrides one config key, e.g. --set queue.port=9011. Repeatable.")
  List<String> sets = new ArrayList<>();

  @Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(
        execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line and returns the exit code; for mains and tests. */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    EmbeddedH2.keepAutoServerLocal(); // before any H2 database opens in this JVM
    // No Groovy closures in our annotations: without this, picocli looks for groovy.lang.Closure,
    // opening every jar on the class path in vain (~30 ms of CPU for a command-line tool).
    if (System.getProperty(PICOCLI_NO_CLOSURES) == null) {
      System.setProperty(PICOCLI_NO_CLOSURES, "true");
    }
    int code = run(commandLine(args), args, out, err);
    out.flush();
    err.flush();
    return code;
  }

  private static int run(CommandLine commandLine, String[] args, PrintWriter out, PrintWriter err) {
    commandLine.setUsageHelpAutoWidth(true); // every subcommand wraps at the terminal's width
    commandLine.setOut(out);
    commandLine.setErr(err);
    Run run = new Run(commandLine.getParameterExceptionHandler(), out, err);
    commandLine.setExecutionExceptionHandler(run);
    commandLine.setExecutionStrategy(run);
    if (commandLine.getSubcommands().size() < SUBCOMMANDS.size()) {
      commandLine.setParameterExceptionHandler(run);
    }
    return commandLine.execute(args);
  }

  /**
   * How a run ends. A command line the lazy tree refuses runs on the whole tree instead, so that
   * its error message is exactly the one of every command; one refused while running is not run
   * again. A class, not lambdas: the class data sharing archive holds no lambda of picocli's Java 5
   * interfaces, nor then those interfaces, which each run read from the jar after opening every jar
   * before it on the class path.
   */
  private static final class Run
      implements CommandLine.IExecutionStrategy,
          CommandLine.IExecutionExceptionHandler,
          CommandLine.IParameterExceptionHandler {
    private final CommandLine.IParameterExceptionHandler own;
    private final PrintWriter out;
    private final PrintWriter err;
    private boolean parsed;

    Run(CommandLine.IParameterExceptionHandler own, PrintWriter out, PrintWriter err) {
      this.own = own;
      this.out = out;
      this.err = err;
    }

    @Override
    public int execute(CommandLine.ParseResult parseResult) {
      parsed = true;
      // stdout is the command's output alone (bin/flipper's tools have it from the start).
      if (!runsDaemons(parseResult) && !Boolean.getBoolean(CliLogConfigurator.PROPERTY)) {
        LoggingSetup.forCommandLine();
      }
      return new CommandLine.RunLast().execute(parseResult);
    }

    @Override
    public int handleExecutionException(
        Exception e, CommandLine cl, CommandLine.ParseResult parseResult) {
      // One line, like every other launcher error; the log has the stack trace at DEBUG.
      cl.getErr().println("flipper: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
      ConfigHints.forUnreachableMaster(e, cl)
          .ifPresent(hint -> cl.getErr().println("flipper: " + hint));
      LoggerFactory.getLogger(Launcher.class).debug("command failed", e);
      return 1;
    }

    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args)
        throws Exception {
      return parsed ? own.handleParseException(e, args) : run(fullCommandLine(), args, out, err);
    }
  }

  /**
   * The command line with only what {@code args} run: {@code flipper queue-tool ...} builds the
   * model of queue-tool alone, {@code flipper workflow status ...} the one of status alone (see
   * {@link WorkflowCommand#addSubcommands}). Anything else ({@code --help}, no or an unknown
   * subcommand) gets every command, so help and error messages list them all.
   */
  static CommandLine commandLine(String[] args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      return new CommandLine(new Launcher()); // the version alone
    }
    if (args.length == 0 || !SUBCOMMANDS.contains(args[0])) {
      return fullCommandLine();
    }
    CommandLine root = new CommandLine(new Launcher());
    root.addSubcommand(subcommand(args[0], args.length > 1 ? args[1] : null));
    return root;
  }

  /** The whole command tree, every subcommand at every level. */
  static CommandLine fullCommandLine() {
    CommandLine root = new CommandLine(new Launcher());
    for (String name : SUBCOMMANDS) {
      root.addSubcommand(subcommand(name, null));
    }
    return root;
  }

  /**
   * One subcommand: a class (picocli builds it when added; a class literal loads only that class)
   * or, for workflow, its command line with only {@code leaf} when that names one.
   */
  private static Object subcommand(String name, String leaf) {
    return switch (name) {
      case "demo" -> DemoCommand.class;
      case "config-check" -> ConfigCheckCommand.class;
      case "hash-password" -> HashPasswordCommand.class;
      case "queue-tool" -> QueueTool.class;
      case "tokens" -> TokenToolConnector.tool();
      case "bench" -> BenchCommand.class;
      case "workflow" -> WorkflowCommand.commandLine(leaf);
      case "tls" -> TlsCommand.class;
      default -> throw new IllegalArgumentException(name);
    };
  }

  /**
   * Whether the command runs daemons ({@code flipper -c FILE -m MODE}, {@code demo}), which log at
   * INFO to stdout.
   */
  private static boolean runsDaemons(CommandLine.ParseResult parsed) {
    List<CommandLine> chain = parsed.asCommandLineList();
    Object command = chain.get(chain.size() - 1).getCommand();
    return command instanceof Launcher || command instanceof DemoCommand;
  }

  /** Runs one mode, as the per-daemon jars do: {@code java -jar flipper-master.jar -c FILE}. */
  public static void runMode(Mode mode, String[] args) {
    String[] withMode = new String[args.length + 2];
    withMode[0] = "--mode";
    withMode[1] = mode.modeName();
    System.arraycopy(args, 0, withMode, 2, args.length);
    main(withMode);
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Path file;
    try {
      file = ConfigLocator.locate(config).file().orElse(null);
    } catch (ConfigException e) {
      err.println("flipper: " + e.getMessage());
      return EXIT_USAGE;
    }
    if (file == null) {
      return usageError(
          err,
          "missing -c FILE, the YAML config file (see conf/flipper.yaml); none in $"
              + ConfigLocator.ENV
              + ", ./flipper.yaml or ~/.config/flipper/flipper.yaml either");
    }
    if (modes.isEmpty()) {
      return usageError(err, "missing -m MODE (modes: " + Mode.validNames() + ")");
    }
    List<Mode> parsed;
    try {
      parsed = Mode.parse(modes);
    } catch (IllegalArgumentException e) {
      return usageError(err, e.getMessage());
    }
    FlipperConfig loaded;
    try {
      loaded = ConfigLoader.load(file, sets, System.getenv());
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return EXIT_USAGE;
    }
    return DaemonRunner.run(
        loaded, file, sets, parsed, spec.commandLine().getOut(), err, running -> {});
  }

  static int usageError(PrintWriter err, String message) {
    err.println("flipper: " + message);
    err.println("Try 'flipper --help' for more information.");
    return EXIT_USAGE;
  }
}
