package dev.flipper.queue.server.internal;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.EnqueueOutcome;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.PinLaterCheckpointJobRequest;
import dev.flipper.queue.thrift.PinLaterCheckpointJobsRequest;
import dev.flipper.queue.thrift.PinLaterDeleteJobsRequest;
import dev.flipper.queue.thrift.PinLaterDequeueRequest;
import dev.flipper.queue.thrift.PinLaterDequeueResponse;
import dev.flipper.queue.thrift.PinLaterEnqueueRequest;
import dev.flipper.queue.thrift.PinLaterEnqueueResponse;
import dev.flipper.queue.thrift.PinLaterGetJobCountRequest;
import dev.flipper.queue.thrift.PinLaterJobAckRequest;
import dev.flipper.queue.thrift.PinLaterJobInfo;
import dev.flipper.queue.thrift.PinLaterLookupJobRequest;
import dev.flipper.queue.thrift.PinLaterRetryFailedJobsRequest;
import dev.flipper.queue.thrift.PinLaterScanJobsRequest;
import dev.flipper.queue.thrift.PinLaterScanJobsResponse;
import dev.flipper.queue.thrift.RequestContext;
import dev.flipper.queue.wire.WireMapping;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.apache.thrift.async.AsyncMethodCallback;

/**
 * Maps each PinLater Thrift call onto {@link QueueService}. Called on the selector thread that read
 * the call: the hot-path calls (enqueue, dequeue, ack, checkpoint, lookup) may run there, the
 * others run on the worker threads (see {@link CallRunner}); the only call that may finish later is
 * a long-poll dequeue. Applies dequeue rate limits and records metrics. Thread-safe.
 */
public final class PinLaterHandler implements PinLater.AsyncIface {
  /** The answer's message header, maps and other fields besides the jobs. */
  private static final int ANSWER_OVERHEAD_BYTES = 64 * 1024;

  /**
   * A job's descriptor, metadata and custom status (5,000 characters, up to 3 bytes each in UTF-8).
   */
  private static final int JOB_OVERHEAD_BYTES = 17 * 1024;

  private final long maxJobBytesPerAnswer;
  private final QueueService service;
  private final DequeueRateLimiter rateLimiter;
  private final LongPoll longPoll;
  private final ServerMetrics metrics;
  private final CallRunner calls;
  private final FilterSlots filterSlots;

  /**
   * @param maxFrameBytes the largest answer the server may send; a dequeue answers with the jobs
   *     that fit and puts the others back
   * @param workers the worker threads, refusing calls beyond {@code maxQueuedCalls} waiting
   * @param directCallLimit see {@link CallRunner}
   * @param maxConcurrentBodyFilters most body-filtered calls at once (see {@link FilterSlots})
   * @param access which callers may make which calls
   */
  public PinLaterHandler(
      QueueService service,
      DequeueRateLimiter rateLimiter,
      LongPoll longPoll,
      ServerMetrics metrics,
      int maxFrameBytes,
      Executor workers,
      int maxQueuedCalls,
      Duration directCallLimit,
      int maxConcurrentBodyFilters,
      QueueAccess access) {
    this.maxJobBytesPerAnswer = maxFrameBytes - ANSWER_OVERHEAD_BYTES;
    this.service = service;
    this.rateLimiter = rateLimiter;
    this.longPoll = longPoll;
    this.metrics = metrics;
    this.calls = new CallRunner(metrics, workers, maxQueuedCalls, directCallLimit, access);
    this.filterSlots = new FilterSlots(maxConcurrentBodyFilters);
  }

  /** Calls started and not yet answered. */
  public int inFlight() {
    return calls.inFlight();
  }

  @Override
  public void createQueue(RequestContext context, String name, AsyncMethodCallback<Void> callback) {
    calls.pooled(
        "createQueue",
        callback,
        () -> {
          requireContext(context, "createQueue");
          service.createQueue(name);
          return null;
        });
  }

  @Override
  public void deleteQueue(
      RequestContext context, String name, String password, AsyncMethodCallback<Void> callback) {
    calls.pooled(
        "deleteQueue",
        callback,
        () -> {
          requireContext(context, "deleteQueue");
          service.deleteQueue(name, password);
          return null;
        });
  }

  @Override
  public void enqueueJobs(
      RequestContext context,
      PinLaterEnqueueRequest request,
      AsyncMethodCallback<PinLaterEnqueueResponse> callback) {
    calls.direct(
        "enqueueJobs",
        callback,
        () -> {
          requireContext(context, "enqueueJobs");
          requireRequest(request, "enqueueJobs");
          if (request.getJobs().isEmpty()) {
            return new PinLaterEnqueueResponse(new ArrayList<>());
          }
          List<NewJob> jobs = WireMapping.jobsFromThrift(request.getJobs());
          if (WireMapping.anyUniqueKey(jobs)) {
            List<EnqueueOutcome> outcomes =
                service.enqueueWithOutcomes(request.getQueueName(), jobs);
            List<byte[]> created = new ArrayList<>();
            for (int i = 0; i < outcomes.size(); i++) {
              if (!outcomes.get(i).duplicate()) {
                created.add(jobs.get(i).body());
              }
            }
            metrics.enqueued(request.getQueueName(), created.size());
            metrics.bodiesEnqueued(request.getQueueName(), created);
            longPoll.signal(request.getQueueName());
            return WireMapping.outcomesToThrift(outcomes);
          }
          List<JobDescriptor> descriptors = service.enqueue(request.getQueueName(), jobs);
          metrics.enqueued(request.getQueueName(), descriptors.size());
          metrics.bodiesEnqueued(request.getQueueName(), jobs.stream().map(NewJob::body).toList());
          longPoll.signal(request.getQueueName());
          return new PinLaterEnqueueResponse(WireMapping.descriptorsToThrift(descriptors));
        });
  }

  @Override
  public void dequeueJobs(
      RequestContext context,
      PinLaterDequeueRequest request,
      AsyncMethodCallback<PinLaterDequeueResponse> callback) {
    calls.directLater("dequeueJobs", callback, () -> dequeue(context, request));
  }

  private CompletionStage<PinLaterDequeueResponse> dequeue(
      RequestContext context, PinLaterDequeueRequest request) {
    String source = requireContext(context, "dequeueJobs");
    requireRequest(request, "dequeueJobs");
    String queue = request.getQueueName();
    if (request.getLimit() <= 0) {
      throw QueueException.invalid(
          "dequeue limit of queue " + queue + " must be > 0, was " + request.getLimit());
    }
    DequeueParams params = WireMapping.fromThrift(request, source);
    Admission admission = rateLimiter.admit(queue, params.limit());
    if (admission.refused()) {
      // Unlike the original, a refused dequeue still applies its piggy-backed acks.
      if (params.ack() != null && !params.ack().isEmpty()) {
        ack(params.ack());
      }
      metrics.rateLimited(queue);
      throw new QueueException(
          ErrorCode.DEQUEUE_RATE_LIMITED,
          "Dequeue rate limit exceeded for queue: "
              + queue
              + " ("
              + rateLimiter.rate(queue)
              + " jobs/s on this server)");
    }
    List<DequeuedJob> jobs =
        fitInOneAnswer(
            queue, source, dequeueAdmitted(withLimit(params, admission.limit()), admission));
    if (params.ack() != null) {
      metrics.acked(
          params.ack().queue(), params.ack().succeeded().size(), params.ack().failed().size());
    }
    if (!jobs.isEmpty() || params.dryRun() || !longPoll.enabled()) {
      return CompletableFuture.completedFuture(respond(queue, jobs, params.dryRun()));
    }
    DequeueParams retry = withLimit(params, params.limit()).withAck(null);
    return longPoll
        .<DequeuedJob>await(
            queue,
            () -> {
              Admission again = rateLimiter.admit(queue, retry.limit());
              return again.refused()
                  ? List.of()
                  : dequeueAdmitted(withLimit(retry, again.limit()), again);
            })
        .thenApply(found -> respond(queue, fitInOneAnswer(queue, source, found), false));
  }

  private List<DequeuedJob> dequeueAdmitted(DequeueParams params, Admission admission) {
    List<DequeuedJob> jobs;
    try {
      jobs = service.dequeue(params);
    } catch (RuntimeException e) {
      admission.charge(0);
      throw e;
    }
    admission.charge(params.dryRun() ? 0 : jobs.size());
    return jobs;
  }

  /**
   * The claimed jobs that fit in one answer frame (at least one); the others go back to pending at
   * once, their attempt unused. Sending them all would fail (an answer over the frame limit cannot
   * be sent or read), leaving every job claimed and each retry using another attempt.
   */
  private List<DequeuedJob> fitInOneAnswer(String queue, String source, List<DequeuedJob> jobs) {
    long room = maxJobBytesPerAnswer;
    int fit = 0;
    for (DequeuedJob job : jobs) {
      long size = (long) job.body().length + JOB_OVERHEAD_BYTES;
      if (fit > 0 && size > room) {
        break;
      }
      room -= size;
      fit++;
    }
    if (fit == jobs.size()) {
      return jobs;
    }
    List<CheckpointParams> putBack = new ArrayList<>();
    for (DequeuedJob job : jobs.subList(fit, jobs.size())) {
      putBack.add(new CheckpointParams(job.descriptor(), null, true, null, null, null));
    }
    service.checkpoint(queue, source, putBack);
    return jobs.subList(0, fit);
  }

  private PinLaterDequeueResponse respond(String queue, List<DequeuedJob> jobs, boolean dryRun) {
    metrics.dequeued(queue, jobs, !dryRun);
    return WireMapping.toThrift(jobs);
  }

  private static DequeueParams withLimit(DequeueParams params, int limit) {
    return new DequeueParams(
        params.queue(), limit, params.source(), params.dryRun(), params.coverage(), params.ack());
  }

  @Override
  public void ackDequeuedJobs(
      RequestContext context, PinLaterJobAckRequest request, AsyncMethodCallback<Void> callback) {
    calls.direct(
        "ackDequeuedJobs",
        callback,
        () -> {
          requireContext(context, "ackDequeuedJobs");
          requireRequest(request, "ackDequeuedJobs");
          AckParams ack = WireMapping.fromThrift(request);
          if (!ack.isEmpty()) {
            ack(ack);
          }
          return null;
        });
  }

  private void ack(AckParams ack) {
    service.ack(ack);
    metrics.acked(ack.queue(), ack.succeeded().size(), ack.failed().size());
  }

  @Override
  public void checkpointJobs(
      RequestContext context,
      PinLaterCheckpointJobsRequest request,
      AsyncMethodCallback<Void> callback) {
    calls.direct(
        "checkpointJobs",
        callback,
        () -> {
          String source = requireContext(context, "checkpointJobs");
          requireRequest(request, "checkpointJobs");
          if (request.getRequests().isEmpty()) {
            return null;
          }
          List<CheckpointParams> checkpoints = new ArrayList<>(request.getRequestsSize());
          for (PinLaterCheckpointJobRequest item : request.getRequests()) {
            checkpoints.add(WireMapping.fromThrift(item));
          }
          service.checkpoint(request.getQueueName(), source, checkpoints);
          metrics.checkpointed(request.getQueueName(), checkpoints.size());
          return null;
        });
  }

  @Override
  public void lookupJobs(
      RequestContext context,
      PinLaterLookupJobRequest request,
      AsyncMethodCallback<Map<String, PinLaterJobInfo>> callback) {
    calls.direct(
        "lookupJobs",
        callback,
        () -> {
          requireContext(context, "lookupJobs");
          requireRequest(request, "lookupJobs");
          Map<String, PinLaterJobInfo> found = new LinkedHashMap<>();
          if (request.getJobDescriptors().isEmpty()) {
            return found;
          }
          List<JobDescriptor> jobs = WireMapping.descriptorsFromThrift(request.getJobDescriptors());
          Map<JobDescriptor, JobInfo> infos = service.lookup(jobs, request.isIncludeBody());
          // Keyed by the strings the client sent, as the original did.
          for (int i = 0; i < jobs.size(); i++) {
            JobInfo info = infos.get(jobs.get(i));
            if (info != null) {
              found.put(request.getJobDescriptors().get(i), WireMapping.toThrift(info));
            }
          }
          return found;
        });
  }

  @Override
  public void getJobCount(
      RequestContext context,
      PinLaterGetJobCountRequest request,
      AsyncMethodCallback<Integer> callback) {
    calls.pooled(
        "getJobCount",
        callback,
        filterSlots.forRegex(request == null ? null : request.getBodyRegexToMatch()),
        () -> {
          requireContext(context, "getJobCount");
          requireRequest(request, "getJobCount");
          return service.count(WireMapping.fromThrift(request));
        });
  }

  @Override
  public void getQueueNames(RequestContext context, AsyncMethodCallback<Set<String>> callback) {
    calls.pooled(
        "getQueueNames",
        callback,
        () -> {
          requireContext(context, "getQueueNames");
          return new HashSet<>(service.queueNames());
        });
  }

  @Override
  public void scanJobs(
      RequestContext context,
      PinLaterScanJobsRequest request,
      AsyncMethodCallback<PinLaterScanJobsResponse> callback) {
    calls.pooled(
        "scanJobs",
        callback,
        filterSlots.forRegex(request == null ? null : request.getBodyRegexToMatch()),
        () -> {
          requireContext(context, "scanJobs");
          requireRequest(request, "scanJobs");
          return WireMapping.toThrift(service.scan(WireMapping.fromThrift(request)));
        });
  }

  @Override
  public void retryFailedJobs(
      RequestContext context,
      PinLaterRetryFailedJobsRequest request,
      AsyncMethodCallback<Integer> callback) {
    calls.pooled(
        "retryFailedJobs",
        callback,
        () -> {
          requireContext(context, "retryFailedJobs");
          requireRequest(request, "retryFailedJobs");
          service.requireAdminPasswordIfSet(
              request.getPassword(), "retryFailedJobs", request.getQueueName());
          return service.retryFailed(WireMapping.fromThrift(request));
        });
  }

  @Override
  public void deleteJobs(
      RequestContext context,
      PinLaterDeleteJobsRequest request,
      AsyncMethodCallback<Integer> callback) {
    calls.pooled(
        "deleteJobs",
        callback,
        filterSlots.forRegex(request == null ? null : request.getBodyRegexToMatch()),
        () -> {
          requireContext(context, "deleteJobs");
          requireRequest(request, "deleteJobs");
          service.requireAdminPassword(request.getPassword(), "deleteJobs", request.getQueueName());
          return service.deleteJobs(WireMapping.fromThrift(request));
        });
  }

  @Override
  public void deleteJob(
      RequestContext context, String jobDescriptor, AsyncMethodCallback<Boolean> callback) {
    calls.pooled(
        "deleteJob",
        callback,
        () -> {
          requireContext(context, "deleteJob");
          if (jobDescriptor == null) {
            throw QueueException.invalid(
                "deleteJob needs a job descriptor (argument 2), e.g. emails:s1:p1:42");
          }
          return service.deleteJob(JobDescriptor.parse(jobDescriptor));
        });
  }

  @Override
  public void retryJob(
      RequestContext context,
      String jobDescriptor,
      int attemptsToAllow,
      AsyncMethodCallback<Boolean> callback) {
    calls.pooled(
        "retryJob",
        callback,
        () -> {
          requireContext(context, "retryJob");
          if (jobDescriptor == null) {
            throw QueueException.invalid(
                "retryJob needs a job descriptor (argument 2), e.g. emails:s1:p1:42");
          }
          return service.retryJob(JobDescriptor.parse(jobDescriptor), attemptsToAllow);
        });
  }

  @Override
  public void setQueuePaused(
      RequestContext context,
      String name,
      boolean paused,
      String password,
      AsyncMethodCallback<Void> callback) {
    calls.pooled(
        "setQueuePaused",
        callback,
        () -> {
          requireContext(context, "setQueuePaused");
          service.requireAdminPasswordIfSet(password, "setQueuePaused", name);
          service.setPaused(name, paused);
          return null;
        });
  }

  @Override
  public void getPausedQueues(RequestContext context, AsyncMethodCallback<Set<String>> callback) {
    calls.pooled(
        "getPausedQueues",
        callback,
        () -> {
          requireContext(context, "getPausedQueues");
          return new HashSet<>(service.pausedQueues());
        });
  }

  /**
   * The original dereferenced a missing context and failed with a NullPointerException; say what is
   * needed. Every call needs a source, as dequeue always did: an enqueue without one was accepted
   * while a dequeue was refused.
   */
  private static String requireContext(RequestContext context, String method) {
    if (context == null) {
      throw QueueException.invalid(
          method
              + " needs a RequestContext (argument 1) whose source names the caller, "
              + "for example 'mailer:host7'");
    }
    QueueService.requireSource(context.getSource());
    return context.getSource();
  }

  private static void requireRequest(Object request, String method) {
    if (request == null) {
      throw QueueException.invalid(method + " needs its request (argument 2)");
    }
  }
}
