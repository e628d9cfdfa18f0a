package dev.flipper.workflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A master restart during a worker's write: the Thrift client then reports "outcome unknown"
 * (UNKNOWN). The engine reads back what is stored, so a result that was written is not lost and one
 * that was not is written.
 */
class UnknownOutcomeTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T01:00:00Z"));
  private final FlakyMaster master =
      new FlakyMaster(TokenService.builder(InMemoryTokenStore.create()).clock(clock).build());
  private final WorkflowEngine engine = WorkflowEngine.builder(master).clock(clock).build();

  private String startChain() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("u")
                    .job(JobDefinition.builder("a").command("a").maxAttempts(2))
                    .job(JobDefinition.builder("b").command("b").needs("a"))
                    .build()));
    return engine.instances().start("u");
  }

  private ClaimedJob startedJob() {
    ClaimedJob job = engine.claim("w", Duration.ofMinutes(1)).orElseThrow();
    engine.start(job, new ExecutionStart(job.command(), "h", Map.of()));
    return job;
  }

  @Test
  void aSuccessWrittenBeforeTheConnectionBrokeIsKept() {
    String inst = startChain();
    ClaimedJob a = startedJob();
    master.nextModify = Failure.AFTER_APPLYING;

    assertThat(engine.finish(a, ExecutionResult.exit(0)).outcome())
        .isEqualTo(Finished.Outcome.SUCCEEDED);

    assertThat(engine.status().instance("u", inst).orElseThrow().job("a").orElseThrow().status())
        .isEqualTo(JobStatus.SUCCESS);
    assertThat(engine.claim("w", Duration.ofMinutes(1)).orElseThrow().job()).isEqualTo("b");
  }

  @Test
  void aSuccessNotWrittenIsWrittenAgain() {
    startChain();
    ClaimedJob a = startedJob();
    master.nextModify = Failure.WITHOUT_APPLYING;

    assertThat(engine.finish(a, ExecutionResult.exit(0)).outcome())
        .isEqualTo(Finished.Outcome.SUCCEEDED);

    assertThat(engine.claim("w", Duration.ofMinutes(1)).orElseThrow().job()).isEqualTo("b");
  }

  @Test
  void aRetryAndARenewalWrittenBeforeTheConnectionBrokeAreKept() {
    String inst = startChain();
    ClaimedJob a = startedJob();
    master.nextModify = Failure.AFTER_APPLYING;
    engine.renew(a);
    master.nextModify = Failure.AFTER_APPLYING;

    assertThat(engine.finish(a, ExecutionResult.exit(1)).outcome())
        .isEqualTo(Finished.Outcome.RETRYING);

    assertThat(
            engine.status().instance("u", inst).orElseThrow().job("a").orElseThrow().executions())
        .hasSize(1);
    assertThat(engine.claim("w", Duration.ofMinutes(1)).orElseThrow().attempt()).isEqualTo(2);
  }

  @Test
  void aFailureForGoodWrittenBeforeTheConnectionBrokeIsKept() {
    String inst = startChain();
    engine.finish(startedJob(), ExecutionResult.exit(1));
    ClaimedJob second = startedJob();
    master.nextModify = Failure.AFTER_APPLYING;

    Finished finished = engine.finish(second, ExecutionResult.exit(1));

    assertThat(finished.outcome()).isEqualTo(Finished.Outcome.FAILED);
    assertThat(finished.instanceEnded()).contains(InstanceStatus.FAILURE);
    assertThat(engine.status().instance("u", inst).orElseThrow().summary().failedJobs())
        .containsExactly("a");
  }

  enum Failure {
    NONE,
    AFTER_APPLYING,
    WITHOUT_APPLYING
  }

  /**
   * Fails the next modify once with the client's "outcome unknown", after or without applying it.
   */
  static final class FlakyMaster extends ForwardingTokenMaster {
    volatile Failure nextModify = Failure.NONE;

    FlakyMaster(TokenMaster delegate) {
      super(delegate);
    }

    @Override
    public List<Token> modify(ModifyParams params) {
      Failure failure = nextModify;
      nextModify = Failure.NONE;
      if (failure == Failure.WITHOUT_APPLYING) {
        throw new TokenException(TokenErrorCode.UNKNOWN, "connection lost; outcome unknown");
      }
      List<Token> written = super.modify(params);
      if (failure == Failure.AFTER_APPLYING) {
        throw new TokenException(
            TokenErrorCode.UNKNOWN, "connection lost after sending; outcome unknown");
      }
      return written;
    }
  }
}
