package dev.flipper.queue.server;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.EnqueueOutcome;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.ThriftJobQueue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A service as a remote client sees it: a {@link QueueServer} on an ephemeral local port in front
 * of the service, and a {@link ThriftJobQueue} talking to it over TCP. Closed together (client
 * first). Thread-safe.
 */
final class RemoteJobQueue implements JobQueue, AutoCloseable {
  /** The contract suites' admin password (queue-core's ContractFixture), sent by the clients. */
  private static final String CONTRACT_ADMIN_PASSWORD = "contract-admin-password";

  private final QueueServer server;
  private final ThriftJobQueue queue;

  private RemoteJobQueue(QueueServer server) {
    this.server = server;
    this.queue = new ThriftJobQueue(clientFor("contract-client"), this::clientFor);
  }

  /** Starts a server around the service; the caller closes the result. */
  static RemoteJobQueue serve(QueueService service) {
    // At close the test is done and the client closed; the short grace only lets the server finish
    // its
    // bookkeeping of the last answered call, without the default 10 s wait on every test.
    QueueServer server =
        QueueServer.builder(service)
            .bindHost("127.0.0.1")
            .port(0)
            .workerThreads(8)
            .shutdownGracePeriod(Duration.ofMillis(50))
            .build()
            .start();
    try {
      return new RemoteJobQueue(server);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private QueueClient clientFor(String source) {
    return QueueClient.builder()
        .server("127.0.0.1", server.port())
        .source(source)
        .adminPassword(CONTRACT_ADMIN_PASSWORD)
        .build();
  }

  @Override
  public void createQueue(String name) {
    queue.createQueue(name);
  }

  @Override
  public void deleteQueue(String name, String password) {
    queue.deleteQueue(name, password);
  }

  @Override
  public Set<String> queueNames() {
    return queue.queueNames();
  }

  @Override
  public List<JobDescriptor> enqueue(String name, List<NewJob> jobs) {
    return queue.enqueue(name, jobs);
  }

  @Override
  public List<EnqueueOutcome> enqueueWithOutcomes(String name, List<NewJob> jobs) {
    return queue.enqueueWithOutcomes(name, jobs);
  }

  @Override
  public List<DequeuedJob> dequeue(DequeueParams params) {
    return queue.dequeue(params);
  }

  @Override
  public void ack(AckParams params) {
    queue.ack(params);
  }

  @Override
  public void checkpoint(String name, String source, List<CheckpointParams> checkpoints) {
    queue.checkpoint(name, source, checkpoints);
  }

  @Override
  public Map<JobDescriptor, JobInfo> lookup(List<JobDescriptor> jobs, boolean includeBody) {
    return queue.lookup(jobs, includeBody);
  }

  @Override
  public int count(CountParams params) {
    return queue.count(params);
  }

  @Override
  public ScanPage scan(ScanParams params) {
    return queue.scan(params);
  }

  @Override
  public int retryFailed(RetryFailedParams params) {
    return queue.retryFailed(params);
  }

  @Override
  public int deleteJobs(DeleteJobsParams params) {
    return queue.deleteJobs(params);
  }

  @Override
  public boolean retryJob(JobDescriptor job, int attemptsToAllow) {
    return queue.retryJob(job, attemptsToAllow);
  }

  @Override
  public void close() {
    try {
      queue.close();
    } finally {
      server.close();
    }
  }

  @Override
  public String toString() {
    return "RemoteJobQueue(127.0.0.1:" + server.port() + ")";
  }
}
