package dev.flipper.workflow.scheduler;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.scheduler.overrun.InstanceOutcome;
import dev.flipper.workflow.scheduler.overrun.WorkflowRuns;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine as the scheduler sees it: an instance is one token {@code
 * /workflow/<wf>/<id>/instance} whose data is the slot it was started for; running instances and
 * the last outcome are set by the test. Thread-safe.
 */
final class FakeEngine extends TokenInstanceStarter {
  final Map<String, List<String>> running = new ConcurrentHashMap<>();
  final Map<String, InstanceOutcome> lastFinished = new ConcurrentHashMap<>();
  final Set<String> missing = ConcurrentHashMap.newKeySet();
  volatile Runnable beforeStart = () -> {};

  /** Where ABORT signals are looked up; null: never aborting yet. */
  volatile TokenMaster master;

  FakeEngine(TokenMaster master, Clock clock) {
    super(master, clock);
  }

  @Override
  protected String instancePrefix(String workflow, String instanceId) {
    return "/workflow/" + workflow + "/" + instanceId + "/";
  }

  @Override
  public Optional<List<Token>> startTokens(
      String workflow, String instanceId, Map<String, String> params) {
    beforeStart.run();
    if (missing.contains(workflow)) {
      return Optional.empty();
    }
    return Optional.of(
        List.of(
            Token.of(
                "/workflow/" + workflow + "/" + instanceId + "/instance",
                params.get(SCHEDULED_TIME))));
  }

  @Override
  public List<Token> abortTokens(String workflow, String instance) {
    String name = "/signal/instance/" + workflow + "/" + instance + "/ABORT";
    if (master != null && !master.query(Query.prefix(name)).isEmpty()) {
      return List.of(); // already aborting
    }
    return List.of(Token.of(name, "{}"));
  }

  @Override
  public WorkflowRuns runs(String workflow) {
    return new WorkflowRuns(
        running.getOrDefault(workflow, List.of()), Optional.ofNullable(lastFinished.get(workflow)));
  }
}
