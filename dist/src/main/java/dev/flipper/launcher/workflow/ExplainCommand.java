package dev.flipper.launcher.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.flipper.workflow.control.ExplainSnapshot;
import dev.flipper.workflow.control.Explainer;
import dev.flipper.workflow.control.Explanation;
import dev.flipper.workflow.control.Reason;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code flipper workflow explain -w WF [-i ID [-j JOB]] [--json]}: why it is not running now. */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = {
      "Says in plain words why a job, an instance or a workflow is not running now.",
      "For a job (-j) or an instance (-i): waiting for which parents, in retry delay until when, drained "
          + "or paused at which level, aborted, no worker alive, all workers busy, generation mismatch, or "
          + "running (on which worker) or finished. With -w only: why no new instance starts (schedule, max "
          + "running instances). The first word is a code (docs/operations.md).",
      "Exit code 0; 1 if the workflow, instance or job is not found or the master fails."
    },
    footer = {
      "",
      "Examples:",
      "  flipper workflow explain -w etl -i 1764000000000",
      "  flipper workflow explain -w etl -i 1764000000000 -j load --json"
    })
public final class ExplainCommand implements Callable<Integer> {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Option(
      names = {"-w", "--workflow"},
      required = true,
      paramLabel = "WF",
      description = "The workflow.")
  String workflow;

  @Option(
      names = {"-i", "--instance"},
      paramLabel = "ID",
      description = "An instance of the workflow.")
  String instance;

  @Option(
      names = {"-j", "--job"},
      paramLabel = "JOB",
      description = "A job of the instance.")
  String job;

  @Option(names = "--json", description = "Print the explanation as JSON.")
  boolean json;

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws JsonProcessingException {
    if (job != null && instance == null) {
      throw new CommandLine.ParameterException(spec.commandLine(), "-j JOB needs -i ID");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (WorkflowClient client = new WorkflowClient(master)) {
      Explanation explanation =
          Explainer.explain(
              ExplainSnapshot.read(
                  client.engine, Clock.systemUTC(), workflow, Optional.ofNullable(instance)),
              Optional.ofNullable(job));
      if (json) {
        out.println(JSON.writeValueAsString(explanation));
      } else {
        print(out, explanation, "");
      }
      return explanation.reason() == Reason.NOT_FOUND ? 1 : 0;
    }
  }

  private static void print(PrintWriter out, Explanation e, String indent) {
    out.println(indent + e.subject() + ": " + e.reason());
    out.println(indent + "  " + e.text());
    e.jobs().forEach(j -> print(out, j, indent + "  "));
  }
}
