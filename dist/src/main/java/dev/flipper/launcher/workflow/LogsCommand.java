package dev.flipper.launcher.workflow;

import dev.flipper.tls.Role;
import dev.flipper.tls.ServerRole;
import dev.flipper.tls.TlsHttp;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.StatusReader;
import dev.flipper.workflow.fleet.WorkerLogUrls;
import dev.flipper.workflow.worker.exec.LogCutMarker;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flipper workflow logs -w WF -i ID -j JOB [-e N] [--stderr] [--follow]}: prints a job's
 * log, read from the worker that wrote it through the URL in the execution record (the worker's
 * admin port, {@code /logs/...}), so no shared filesystem is needed. The URL is fetched on the
 * address that published the worker's heartbeat ({@link WorkerLogUrls}); with {@code security.tls}
 * presenting the command identity, and only from a server holding a worker certificate.
 */
@Command(
    name = "logs",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the stdout (or --stderr) log of one execution of a job, read from the worker that ran it.",
      "When the worker cut the middle out of the log (workers.maxLogBytes), a line on stderr says so.",
      "With --follow, a job that has not started yet is waited for.",
      "Exit code 0; 1 if the job, execution or log is not found or the worker cannot be reached."
    },
    footer = {
      "",
      "Examples:",
      "  flipper workflow logs -w etl -i 1764000000000 -j extract",
      "  flipper workflow logs -w etl -i 1764000000000 -j extract -e 1 --stderr --follow"
    })
public final class LogsCommand implements Callable<Integer> {
  /** How often --follow asks for more while the execution runs. */
  static final Duration FOLLOW_INTERVAL = Duration.ofMillis(500);

  private static final int CHUNK = 1 << 20;
  private HttpClient http;
  private TlsIdentity tls;

  @Option(
      names = {"-w", "--workflow"},
      paramLabel = "WF",
      required = true,
      description = "The workflow.")
  String workflow;

  @Option(
      names = {"-i", "--instance"},
      paramLabel = "ID",
      required = true,
      description = "The instance.")
  String instance;

  @Option(
      names = {"-j", "--job"},
      paramLabel = "JOB",
      required = true,
      description = "The job.")
  String job;

  @Option(
      names = {"-e", "--execution"},
      paramLabel = "N",
      description = "The execution number (1 = the first, as in status); default: the last.")
  Integer execution;

  @Option(names = "--stderr", description = "The stderr log instead of stdout.")
  boolean stderr;

  @Option(
      names = {"-f", "--follow"},
      description =
          "Keep printing what the job writes until the execution ends; first wait for the job to start "
              + "if it has not yet.")
  boolean follow;

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String stream = stderr ? "stderr" : "stdout";
    try (WorkflowClient client = new WorkflowClient(master)) {
      StatusReader status = client.engine.status();
      if (follow) {
        awaitFirstExecution(status, err);
      }
      Optional<ExecutionDetail> found = find(client, status, err);
      if (found.isEmpty()) {
        return 1;
      }
      ExecutionDetail record = found.get();
      String named = record.logs().get(stream);
      if (named == null) {
        err.println(
            "execution "
                + record.execution()
                + " of "
                + workflow
                + "/"
                + instance
                + "/"
                + job
                + " has no "
                + stream
                + " log"
                + (record.command().equals("DISABLED") ? " (the job is disabled)" : ""));
        return 1;
      }
      String url;
      try {
        url = new WorkerLogUrls(client.master).fetchable(named);
      } catch (WorkerLogUrls.RefusedException e) {
        err.println(e.getMessage());
        return 1;
      }
      tls = master.loadConfig().security().commandIdentity().orElse(null);
      http = TlsHttp.client(tls, Duration.ofSeconds(5));
      try {
        if (!follow) {
          HttpResponse<byte[]> response = get(url);
          if (response.statusCode() != 200) {
            return httpError(err, url, response);
          }
          String text = new String(response.body(), StandardCharsets.UTF_8);
          tellCut(text, err);
          out.print(text);
          out.flush();
          return 0;
        }
        return follow(status, record, url, out, err);
      } catch (IOException e) {
        err.println(
            "cannot read " + url + ": " + e + " (is the worker that ran the job still up?)");
        return 1;
      }
    }
  }

  private int follow(
      StatusReader status, ExecutionDetail record, String url, PrintWriter out, PrintWriter err)
      throws IOException, InterruptedException {
    long offset = 0;
    boolean ended = !record.running();
    while (true) {
      HttpResponse<byte[]> response = get(url + "?offset=" + offset + "&max=" + CHUNK);
      if (response.statusCode() == 404 && !ended) {
        Thread.sleep(FOLLOW_INTERVAL.toMillis()); // the process has not opened its log yet
        ended = !current(status, record).map(ExecutionDetail::running).orElse(false);
        continue;
      }
      if (response.statusCode() != 200) {
        return httpError(err, url, response);
      }
      byte[] data = response.body();
      String text = new String(data, StandardCharsets.UTF_8);
      tellCut(text, err);
      out.print(text);
      out.flush();
      offset =
          response.headers().firstValueAsLong("X-Log-Next-Offset").orElse(offset + data.length);
      long size = response.headers().firstValueAsLong("X-Log-Size").orElse(offset);
      if (offset < size) {
        continue;
      }
      if (ended) {
        return 0;
      }
      Thread.sleep(FOLLOW_INTERVAL.toMillis());
      // Read the state before the next chunk: once ended, that chunk is the last.
      ended = !current(status, record).map(ExecutionDetail::running).orElse(false);
    }
  }

  /**
   * Waits while the job has no execution and its instance still runs (it may start later), saying
   * so once on stderr; returns at once otherwise, and {@link #find} reports what is there.
   */
  private void awaitFirstExecution(StatusReader status, PrintWriter err)
      throws InterruptedException {
    boolean told = false;
    while (true) {
      Optional<InstanceDetail> detail = status.instance(workflow, instance);
      boolean notStarted =
          detail.isPresent()
              && !detail.get().summary().status().isFinished()
              && detail.get().job(job).map(j -> j.executions().isEmpty()).orElse(false);
      if (!notStarted) {
        return;
      }
      if (!told) {
        err.println("waiting for job " + workflow + "/" + instance + "/" + job + " to start…");
        err.flush();
        told = true;
      }
      Thread.sleep(FOLLOW_INTERVAL.toMillis());
    }
  }

  /**
   * Says on stderr, before the text, that the worker cut bytes out of the log at its marker line.
   */
  private static void tellCut(String text, PrintWriter err) {
    LogCutMarker.find(text)
        .ifPresent(
            cut -> {
              err.println(
                  "flipper: the worker cut "
                      + cut
                      + " bytes out of the middle of this log (workers.maxLogBytes); they are gone "
                      + "where the '--- flipper: … bytes cut here ---' line is");
              err.flush();
            });
  }

  private Optional<ExecutionDetail> current(StatusReader status, ExecutionDetail record) {
    return status
        .instance(workflow, instance)
        .flatMap(d -> d.job(job))
        .flatMap(
            j ->
                j.executions().stream()
                    .filter(e -> e.execution() == record.execution())
                    .findFirst());
  }

  private Optional<ExecutionDetail> find(
      WorkflowClient client, StatusReader status, PrintWriter err) {
    Optional<InstanceDetail> detail = status.instance(workflow, instance);
    if (detail.isEmpty()) {
      // Archived: its records (with their log URLs) are in the master's archive.
      detail =
          client.readArchive(r -> r.archivedInstance(workflow, instance), Optional.empty(), err);
    }
    if (detail.isEmpty()) {
      err.println("no instance " + workflow + "/" + instance);
      return Optional.empty();
    }
    Optional<JobDetail> found = detail.get().job(job);
    if (found.isEmpty()) {
      err.println(
          "no job '"
              + job
              + "' in "
              + workflow
              + "/"
              + instance
              + "; jobs: "
              + detail.get().jobs().stream().map(JobDetail::name).toList());
      return Optional.empty();
    }
    List<ExecutionDetail> executions = found.get().executions();
    if (executions.isEmpty()) {
      err.println(
          workflow
              + "/"
              + instance
              + "/"
              + job
              + " has not run yet ("
              + found.get().status()
              + ")");
      return Optional.empty();
    }
    if (execution == null) {
      return Optional.of(executions.get(executions.size() - 1));
    }
    Optional<ExecutionDetail> numbered =
        executions.stream().filter(e -> e.execution() == execution).findFirst();
    if (numbered.isEmpty()) {
      err.println(
          "no execution "
              + execution
              + " of "
              + workflow
              + "/"
              + instance
              + "/"
              + job
              + "; executions: "
              + executions.stream().map(ExecutionDetail::execution).toList());
    }
    return numbered;
  }

  /** Reads a worker's log; with security.tls, only from a server holding a worker certificate. */
  private HttpResponse<byte[]> get(String url) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(TlsHttp.url(url, tls)))
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build();
    HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    if (tls != null) {
      ServerRole.require(response, Role.WORKER);
    }
    return response;
  }

  private static int httpError(PrintWriter err, String url, HttpResponse<byte[]> response) {
    err.println(
        "cannot read "
            + url
            + ": HTTP "
            + response.statusCode()
            + " "
            + new String(response.body(), StandardCharsets.UTF_8).strip());
    return 1;
  }
}
