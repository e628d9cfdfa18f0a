package dev.flipper.launcher.workflow;

import dev.flipper.tls.TlsHttp;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.StatusReader;
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
 * admin port, {@code /logs/...}), so no shared filesystem is needed.
 */
@Command(
    name = "logs",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the stdout (or --stderr) log of one execution of a job, read from the worker that ran it.",
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
      description = "Keep printing what the job writes until the execution ends.")
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
      Optional<ExecutionDetail> found = find(client, status, err);
      if (found.isEmpty()) {
        return 1;
      }
      ExecutionDetail record = found.get();
      String url = record.logs().get(stream);
      if (url == null) {
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
      try {
        if (!follow) {
          HttpResponse<byte[]> response = get(url);
          if (response.statusCode() != 200) {
            return httpError(err, url, response);
          }
          out.print(new String(response.body(), StandardCharsets.UTF_8));
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
      out.print(new String(data, StandardCharsets.UTF_8));
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

  /** Reads a worker's log, with the command identity when security.tls is on. */
  private HttpResponse<byte[]> get(String url) throws IOException, InterruptedException {
    if (http == null) {
      tls = master.loadConfig().security().commandIdentity().orElse(null);
      http = TlsHttp.client(tls, Duration.ofSeconds(5));
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(TlsHttp.url(url, tls)))
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
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
