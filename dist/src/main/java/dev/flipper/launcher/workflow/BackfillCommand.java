package dev.flipper.launcher.workflow;

import dev.flipper.text.DurationText;
import dev.flipper.text.Readable;
import dev.flipper.workflow.scheduler.Backfill;
import dev.flipper.workflow.scheduler.BackfillProgress;
import dev.flipper.workflow.scheduler.EngineInstanceStarter;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code flipper workflow backfill -w WF --from T --to T}: start the slots of a past range. */
@Command(
    name = "backfill",
    mixinStandardHelpOptions = true,
    description = {
      "Starts one instance per past slot of a workflow's schedule, from --from to --to.",
      "Both ends are included; at most 1,000 slots, in the past, oldest first, each with its slot as "
          + "FLIPPER_SCHEDULED_TIME. Prints 'id slot' per instance as it starts.",
      "At most the schedule's maxRunning instances run at once: when that many run, backfill waits "
          + "(checking every --check-every) and starts the next slots as earlier instances end. "
          + "Stopped (Ctrl-C), it starts no more; run it again with a later --from for the rest.",
      "The schedule itself is not moved, and overrun policies do not apply.",
      "Exit code 0 when every slot started; 1 on a problem; 2 on usage errors."
    },
    footer = {
      "",
      "Example:",
      "  flipper workflow backfill -c conf/flipper.yaml -w etl --from 2026-11-01T00:00:00Z --to 2026-11-07T23:59:59Z"
    })
public final class BackfillCommand implements Callable<Integer> {
  @Option(
      names = {"-w", "--workflow"},
      required = true,
      paramLabel = "WF",
      description = "The workflow.")
  String workflow;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "TIME",
      description = "First time of the range, with an offset: 2026-11-01T00:00:00Z.")
  String from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "TIME",
      description = "Last time of the range.")
  String to;

  @Option(
      names = "--check-every",
      paramLabel = "DURATION",
      defaultValue = "5s",
      description =
          "While maxRunning instances run: how often to count them again (default ${DEFAULT-VALUE}).")
  String checkEvery;

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Instant start;
    Instant end;
    try {
      start = OffsetDateTime.parse(from).toInstant();
      end = OffsetDateTime.parse(to).toInstant();
    } catch (DateTimeParseException e) {
      err.println(
          "--from and --to are times with an offset, such as 2026-11-01T00:00:00Z: "
              + e.getMessage());
      return 2;
    }
    Optional<Duration> pause = DurationText.parse(checkEvery).filter(d -> !d.isZero());
    if (pause.isEmpty()) {
      err.println(
          "--check-every '"
              + checkEvery
              + "' is not a duration above zero; write a number and a unit: "
              + DurationText.FORMS);
      return 2;
    }
    Clock clock = Clock.systemUTC();
    try (WorkflowClient client = new WorkflowClient(master)) {
      List<String> ids =
          Backfill.run(
              client.master,
              new EngineInstanceStarter(client.engine, clock, EngineInstanceStarter.BACKFILL),
              clock,
              workflow,
              start,
              end,
              new Printer(out, workflow, pause.get()));
      out.println(ids.size() + (ids.size() == 1 ? " instance" : " instances") + " started");
      return 0;
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("backfill stopped; the slots not printed above were not started");
      return 1;
    }
  }

  /** Prints each start, and once per wait why it waits; sleeps between counts. */
  private static final class Printer implements BackfillProgress {
    private final PrintWriter out;
    private final String workflow;
    private final Duration pause;
    private boolean waiting;

    Printer(PrintWriter out, String workflow, Duration pause) {
      this.out = out;
      this.workflow = workflow;
      this.pause = pause;
    }

    @Override
    public void started(String instance, Instant slot) {
      out.println(instance + " " + Readable.time(slot));
      out.flush();
      waiting = false;
    }

    @Override
    public void waitForRoom(int running, int maxRunning, int left) throws InterruptedException {
      if (!waiting) {
        out.println(
            "waiting: "
                + running
                + " instances of "
                + workflow
                + " run and its schedule allows "
                + maxRunning
                + " (maxRunning); "
                + left
                + (left == 1 ? " slot waits" : " slots wait")
                + ", checked every "
                + Readable.duration(pause));
        out.flush();
        waiting = true;
      }
      Thread.sleep(pause.toMillis());
    }
  }
}
