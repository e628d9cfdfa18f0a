package dev.flipper.launcher.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import dev.flipper.workflow.fleet.ExitSignal;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flipper workflow exit [--generation N]} and {@code unexit}: the global EXIT signal of
 * upgrades (docs/operations.md, "Upgrading workers"). Each asks for confirmation unless {@code
 * --force}, says what it changed, and changes nothing when repeated.
 */
public final class ExitCommands {
  private ExitCommands() {}

  /** Options both share. */
  static final class Common {
    @Option(names = "--force", description = "Do not ask for confirmation.")
    boolean force;

    @Option(names = "--json", description = "Print what changed as JSON.")
    boolean json;
  }

  @Command(
      name = "exit",
      mixinStandardHelpOptions = true,
      description = {
        "Sets the global EXIT signal: workers of an older generation finish their jobs and exit.",
        "Workers whose workers.generation is below N stop claiming, finish the jobs they run (none is "
            + "killed) and exit with code 0; workers of generation N or newer keep working.",
        "N defaults to workers.generation of the config given with -c/--set (raise it there first).",
        "Exit code 0; 1 if not confirmed or the master fails; 2 on usage errors."
      },
      footer = {
        "",
        "Example (after starting generation 2 workers):",
        "  flipper workflow exit -c conf/flipper.yaml --generation 2"
      })
  public static final class Exit implements Callable<Integer> {
    @Option(
        names = "--generation",
        paramLabel = "N",
        description = "Workers older than this exit; default: workers.generation of the config.")
    Integer generation;

    @Mixin Common common;

    @Mixin MasterOptions master;

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      int wanted = generation != null ? generation : config(master).workers().generation();
      if (wanted < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--generation is " + wanted + "; generations start at 1");
      }
      return run(
          spec,
          common,
          master,
          "set EXIT: workers older than generation " + wanted + " finish their jobs " + "and exit",
          signal -> signal.set(wanted));
    }
  }

  @Command(
      name = "unexit",
      mixinStandardHelpOptions = true,
      description = {
        "Removes the global EXIT signal, once every old worker is gone (flipper workflow workers).",
        "Exit code 0; 1 if not confirmed or the master fails."
      },
      footer = {"", "Example:", "  flipper workflow unexit -c conf/flipper.yaml"})
  public static final class Unexit implements Callable<Integer> {
    @Mixin Common common;

    @Mixin MasterOptions master;

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      return run(spec, common, master, "remove the EXIT signal", ExitSignal::clear);
    }
  }

  private static int run(
      CommandLine.Model.CommandSpec spec,
      Common common,
      MasterOptions master,
      String what,
      Function<ExitSignal, ExitSignal.Change> change)
      throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    if (!common.force && !confirm(out, what)) {
      spec.commandLine().getErr().println("not confirmed; nothing changed");
      return 1;
    }
    try (WorkflowClient client = new WorkflowClient(master)) {
      ExitSignal.Change done = change.apply(new ExitSignal(client.master, Clock.systemUTC()));
      // What it means for the workers alive now, so that an EXIT that would leave nobody working is
      // noticed.
      Instant now = Instant.now();
      List<Heartbeat> alive =
          new Heartbeats(client.master).list().stream().filter(w -> w.aliveAt(now)).toList();
      long working = alive.stream().filter(w -> w.takesWork(done.after())).count();
      long retiring = alive.size() - working;
      if (common.json) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("changed", done.changed());
        document.put("exitGenerationBefore", done.before().orElse(null));
        document.put("exitGeneration", done.after().orElse(null));
        document.put("aliveWorkersRetiring", retiring);
        document.put("aliveWorkersWorking", working);
        out.println(json(document));
      } else {
        out.println(
            done.changed()
                ? "EXIT signal: " + text(done.before()) + " -> " + text(done.after())
                : "unchanged: EXIT signal " + text(done.after()));
        out.println(
            "alive workers: "
                + retiring
                + " retiring (they exit after their current jobs), "
                + working
                + " working");
      }
      if (working == 0) {
        spec.commandLine()
            .getErr()
            .println(
                "warning: no alive worker takes work: nothing runs until workers of "
                    + "the new generation start (flipper workflow workers)");
      }
      return 0;
    }
  }

  private static String text(Optional<Integer> generation) {
    return generation.map(g -> "workers older than generation " + g + " exit").orElse("none");
  }

  private static boolean confirm(PrintWriter out, String what) throws IOException {
    out.print("This will " + what + ". Proceed? [y/N] ");
    out.flush();
    String answer =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    return answer != null && answer.strip().equalsIgnoreCase("y");
  }

  private static FlipperConfig config(MasterOptions options) {
    return options.config == null
        ? ConfigLoader.defaults(options.sets, System.getenv())
        : ConfigLoader.load(options.config, options.sets, System.getenv());
  }

  private static String json(Object document) {
    try {
      return new ObjectMapper().writeValueAsString(document);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }
}
