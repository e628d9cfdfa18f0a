package dev.flipper.workflow.control;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every token of one active instance, read in one query call (one consistent state): its record,
 * waiting and runnable jobs, events, instance signals and archive token. Operations read it,
 * decide, and write with the versions read. Immutable after {@link #read}.
 */
final class InstanceTokens {
  final String workflow;
  final String instance;
  final Token record;
  final InstanceData data;
  final Map<String, Token> waiting = new LinkedHashMap<>();
  final Map<String, Token> runnable = new LinkedHashMap<>();

  /** Event tokens, by job, then input. */
  final Map<String, Map<String, List<Token>>> events = new LinkedHashMap<>();

  final List<Token> signals;
  final Optional<Token> archive;

  /** Every token above, for stop. */
  final List<Token> all = new ArrayList<>();

  private InstanceTokens(String workflow, String instance, Token record, List<List<Token>> read) {
    this.workflow = workflow;
    this.instance = instance;
    this.record = record;
    this.data = Json.read(record, InstanceData.class);
    String waitingPrefix = TokenLayout.waitingPrefix(workflow, instance);
    String inputPrefix = TokenLayout.instancePrefix(workflow, instance) + "input/";
    for (Token token : read.get(0)) {
      all.add(token);
      if (token.name().startsWith(waitingPrefix)) {
        waiting.put(TokenLayout.last(token.name()), token);
      } else if (token.name().startsWith(inputPrefix)) {
        String[] parts = token.name().substring(inputPrefix.length()).split("/");
        if (parts.length == 3) {
          events
              .computeIfAbsent(parts[0], k -> new LinkedHashMap<>())
              .computeIfAbsent(parts[1], k -> new ArrayList<>())
              .add(token);
        }
      }
    }
    for (Token token : read.get(1)) {
      all.add(token);
      runnable.put(TokenLayout.last(token.name()), token);
    }
    this.signals = read.get(2);
    all.addAll(signals);
    String archiveName = TokenLayout.archive(workflow, instance);
    this.archive = read.get(3).stream().filter(t -> t.name().equals(archiveName)).findFirst();
    archive.ifPresent(all::add);
  }

  /** The active instance, or empty if there is none (never started, stopped or archived). */
  static Optional<InstanceTokens> read(TokenMaster master, String workflow, String instance) {
    List<List<Token>> read =
        master.query(
            List.of(
                Query.prefix(TokenLayout.instancePrefix(workflow, instance)),
                Query.prefix(TokenLayout.runnablePrefix(workflow, instance)),
                Query.prefix(TokenLayout.instanceSignalPrefix(workflow, instance)),
                Query.prefix(TokenLayout.archive(workflow, instance))));
    String recordName = TokenLayout.instanceRecord(workflow, instance);
    return read.get(0).stream()
        .filter(t -> t.name().equals(recordName))
        .findFirst()
        .map(record -> new InstanceTokens(workflow, instance, record, read));
  }

  /** {@link #read}, or a clear error naming the instance. */
  static InstanceTokens require(TokenMaster master, String workflow, String instance) {
    return read(master, workflow, instance)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no active instance "
                        + workflow
                        + "/"
                        + instance
                        + " (archived instances can only be retried; see flipper workflow status -w "
                        + workflow
                        + ")"));
  }

  InstanceStatus status() {
    return DamagedToken.decode(record, t -> data.knownStatus());
  }

  boolean isRunning() {
    return status() == InstanceStatus.RUNNING;
  }

  /** The job's token, waiting or runnable; a clear error if the instance has no such job. */
  Token job(String name) {
    Token token = runnable.containsKey(name) ? runnable.get(name) : waiting.get(name);
    if (token == null) {
      List<String> jobs = new ArrayList<>(waiting.keySet());
      jobs.addAll(runnable.keySet());
      throw new IllegalArgumentException(
          "instance "
              + workflow
              + "/"
              + instance
              + " has no job '"
              + name
              + "'; its jobs: "
              + jobs.stream().sorted().toList());
    }
    return token;
  }

  /** Every job's data, waiting and runnable, by name. */
  Map<String, JobData> jobs() {
    Map<String, JobData> jobs = new LinkedHashMap<>();
    waiting.forEach((name, token) -> jobs.put(name, Json.read(token, JobData.class)));
    runnable.forEach((name, token) -> jobs.put(name, Json.read(token, JobData.class)));
    return jobs;
  }

  /** True if a worker holds the runnable token now (not one of the engine's holds). */
  static boolean runningAt(Token runnable, long nowSeconds) {
    return !Owners.isHold(runnable.owner()) && runnable.isOwnedAt(nowSeconds);
  }

  /**
   * True if the job's last execution ended and failed (a job that never ran, or succeeded, is not
   * failed).
   */
  static boolean lastFailed(JobData job) {
    ExecutionData last = job.lastExecution();
    return last != null && !last.isOpen() && !last.succeeded();
  }

  /**
   * Makes an ended instance RUNNING again (retry, redo, poison): the record is rewritten and the
   * archive token deleted in {@code edit}; {@code rerun} jobs leave the record's failed list. The
   * record of a running instance is rewritten too, unchanged: its version check makes the change
   * conflict with an end check that did not see the new runnable jobs (which would end the instance
   * under them).
   */
  void revive(TokenEdit edit, List<String> rerun) {
    InstanceData revived = Json.copy(data, InstanceData.class);
    boolean wasEnded = !isRunning();
    revived.status = InstanceStatus.RUNNING.name();
    revived.endMillis = null;
    revived.failedJobs.removeAll(rerun);
    String detail =
        wasEnded
            ? data.status + " -> RUNNING"
            : revived.failedJobs.equals(data.failedJobs)
                ? "still RUNNING"
                : "failed jobs " + revived.failedJobs;
    edit.update(record.withData(Json.write(revived)), detail);
    archive.ifPresent(token -> edit.delete(token, "no longer due for archiving"));
  }
}
