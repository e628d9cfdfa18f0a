package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.NewJob;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.queue.thrift.PinLaterJobState;
import dev.flipper.queue.thrift.PinLaterScanJobsRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 40 scans with a catastrophically backtracking body regex at once: 4 run (the default
 * maxConcurrentBodyFilters), the other 36 are refused at once with an error naming the cap, and a
 * plain getQueueNames from another client answers while the 4 still run. Without the cap the 40
 * took all 32 worker threads and getQueueNames waited behind them until their time budget ended.
 */
class BodyFilterSlotsTest {
  private static final String QUEUE = "slow_bodies";
  private static final int SCANS = 40;

  private final ExecutorService callers = Executors.newFixedThreadPool(SCANS);
  private TestServer server;

  @AfterEach
  void stop() {
    callers.shutdownNow();
    server.close();
  }

  @Test
  void excessFilteredScansAreRefusedAtOnceAndOtherCallsAreServed() throws Exception {
    server = TestServer.start();
    server.service.createQueue(QUEUE);
    // (a+)+b backtracks over 19 a's without a b for tens of microseconds (within the step budget
    // of one body; 20 a's exceed it), so one scan of 40,000 bodies runs for a second or more: long
    // after the other 36 calls were refused.
    List<NewJob> jobs = Collections.nCopies(40_000, NewJob.of("a".repeat(19)));
    server.service.enqueue(QUEUE, jobs);

    List<CompletableFuture<String>> scans = new ArrayList<>();
    for (int i = 0; i < SCANS; i++) {
      scans.add(CompletableFuture.supplyAsync(this::catastrophicScan, callers));
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> scans.stream().filter(CompletableFuture::isDone).count() >= SCANS - 4);

    List<String> queueNames;
    try (TestServer.ThriftClient client = server.thriftClient()) {
      queueNames = new ArrayList<>(client.api().getQueueNames(TestServer.CONTEXT));
    }
    List<String> outcomes = scans.stream().map(CompletableFuture::join).toList();

    assertThat(queueNames).containsExactly(QUEUE);
    assertThat(outcomes)
        .filteredOn(message -> !message.equals("answered"))
        .hasSize(SCANS - 4)
        .allSatisfy(
            message ->
                assertThat(message)
                    .contains("scanJobs refused: 4 body-filtered calls already run")
                    .contains("queue.maxConcurrentBodyFilters"));
    assertThat(outcomes).filteredOn("answered"::equals).hasSize(4);
  }

  /** The error message of a scan with a catastrophic regex, or "answered". */
  private String catastrophicScan() {
    try (TestServer.ThriftClient client = server.thriftClient()) {
      client
          .api()
          .scanJobs(
              TestServer.CONTEXT,
              new PinLaterScanJobsRequest(QUEUE)
                  .setJobState(PinLaterJobState.PENDING)
                  .setBodyRegexToMatch("(a+)+b"));
      return "answered";
    } catch (PinLaterException e) {
      return e.getMessage();
    } catch (Exception e) {
      return e.toString();
    }
  }
}
