package dev.flipper.launcher.workflow;

import dev.flipper.workflow.scheduler.Backfill;
import dev.flipper.workflow.scheduler.EngineInstanceStarter;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
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
          + "FLIPPER_SCHEDULED_TIME. Prints 'id slot' per instance.",
      "The schedule itself is not moved, and overrun policies do not apply.",
      "Exit code 0 when started; 1 on a problem; 2 on usage errors."
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
    Clock clock = Clock.systemUTC();
    try (WorkflowClient client = new WorkflowClient(master)) {
      List<String> ids =
          Backfill.run(
              client.master,
              new EngineInstanceStarter(client.engine, clock),
              clock,
              workflow,
              start,
              end);
      for (String id : ids) {
        out.println(
            id
                + " "
                + client
                    .engine
                    .status()
                    .instance(workflow, id)
                    .map(i -> i.summary().params().getOrDefault("scheduledTime", ""))
                    .orElse(""));
      }
      out.println(ids.size() + (ids.size() == 1 ? " instance" : " instances") + " started");
      return 0;
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return 1;
    }
  }
}
