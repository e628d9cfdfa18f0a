package dev.flipper.queue.wire;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.EnqueueOutcome;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.thrift.PinLaterCheckpointJobRequest;
import dev.flipper.queue.thrift.PinLaterDeleteJobsRequest;
import dev.flipper.queue.thrift.PinLaterDequeueMetadata;
import dev.flipper.queue.thrift.PinLaterDequeueRequest;
import dev.flipper.queue.thrift.PinLaterDequeueResponse;
import dev.flipper.queue.thrift.PinLaterEnqueueResponse;
import dev.flipper.queue.thrift.PinLaterGetJobCountRequest;
import dev.flipper.queue.thrift.PinLaterJob;
import dev.flipper.queue.thrift.PinLaterJobAckInfo;
import dev.flipper.queue.thrift.PinLaterJobAckRequest;
import dev.flipper.queue.thrift.PinLaterJobInfo;
import dev.flipper.queue.thrift.PinLaterJobState;
import dev.flipper.queue.thrift.PinLaterRetryFailedJobsRequest;
import dev.flipper.queue.thrift.PinLaterScanJobsRequest;
import dev.flipper.queue.thrift.PinLaterScanJobsResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts between the queue's Java types (queue-core) and the PinLater Thrift structs, in both
 * directions: the server reads requests and writes responses, the client does the opposite. Absent
 * optional Thrift fields take the IDL defaults (a freshly read struct already holds them); fields
 * whose absence means something ("now", "all priorities") are tested with {@code isSet}. Stateless
 * and thread-safe.
 *
 * <p>Shared by queue-server and queue-client; applications use {@code QueueClient} instead.
 */
public final class WireMapping {
  private WireMapping() {}

  // ---- error codes and states ----

  public static dev.flipper.queue.thrift.ErrorCode toThrift(ErrorCode code) {
    dev.flipper.queue.thrift.ErrorCode wire =
        dev.flipper.queue.thrift.ErrorCode.findByValue(code.code());
    return wire == null ? dev.flipper.queue.thrift.ErrorCode.UNKNOWN : wire;
  }

  /** The code for a wire value; values this version does not know become UNKNOWN. */
  public static ErrorCode fromThrift(dev.flipper.queue.thrift.ErrorCode wire) {
    if (wire != null) {
      for (ErrorCode code : ErrorCode.values()) {
        if (code.code() == wire.getValue()) {
          return code;
        }
      }
    }
    return ErrorCode.UNKNOWN;
  }

  public static PinLaterJobState toThrift(JobState state) {
    return PinLaterJobState.findByValue(state.code());
  }

  public static JobState fromThrift(PinLaterJobState state, String field) {
    if (state == null) {
      // Thrift reads a value outside the enum as unset, so both cases arrive here.
      throw QueueException.invalid(
          field
              + " is missing or unknown; use 0 (PENDING), 1 (IN_PROGRESS), 2 (SUCCEEDED)"
              + " or 3 (FAILED)");
    }
    return JobState.fromCode(state.getValue());
  }

  // ---- jobs ----

  public static PinLaterJob toThrift(NewJob job) {
    PinLaterJob wire = new PinLaterJob(ByteBuffer.wrap(job.body()));
    wire.setPriority(narrowPriority(job.priority()));
    wire.setNumAttemptsAllowed(job.attemptsAllowed());
    wire.setCustomStatus(job.customStatus());
    if (job.runAfter() != null) {
      wire.setRunAfterTimestampMillis(job.runAfter().toEpochMilli());
    }
    if (job.uniqueKey() != null) {
      wire.setUniqueKey(job.uniqueKey());
    }
    if (job.uniqueFor() != null) {
      wire.setUniqueForMillis(job.uniqueFor().toMillis());
    }
    return wire;
  }

  public static NewJob fromThrift(PinLaterJob wire) {
    if (wire == null || wire.body == null) {
      throw QueueException.invalid("every PinLaterJob needs a body (field 1)");
    }
    Instant runAfter =
        wire.isSetRunAfterTimestampMillis()
            ? Instant.ofEpochMilli(wire.getRunAfterTimestampMillis())
            : null;
    return new NewJob(
        wire.getBody(),
        wire.getPriority(),
        runAfter,
        wire.getNumAttemptsAllowed(),
        wire.getCustomStatus(),
        wire.getUniqueKey(),
        wire.isSetUniqueForMillis() ? Duration.ofMillis(wire.getUniqueForMillis()) : null);
  }

  /** True if some job carries a unique key: then the response says which were duplicates. */
  public static boolean anyUniqueKey(List<NewJob> jobs) {
    return jobs.stream().anyMatch(job -> job.uniqueKey() != null);
  }

  public static PinLaterEnqueueResponse outcomesToThrift(List<EnqueueOutcome> outcomes) {
    List<String> descriptors = new ArrayList<>(outcomes.size());
    List<Boolean> duplicates = new ArrayList<>(outcomes.size());
    for (EnqueueOutcome outcome : outcomes) {
      descriptors.add(outcome.job().toString());
      duplicates.add(outcome.duplicate());
    }
    return new PinLaterEnqueueResponse(descriptors).setDuplicates(duplicates);
  }

  /**
   * The outcomes of an enqueue response; a response without duplicate flags (a server that predates
   * unique jobs, or a request without keys) reports none.
   */
  public static List<EnqueueOutcome> outcomesFromThrift(PinLaterEnqueueResponse wire) {
    List<JobDescriptor> jobs = descriptorsFromThrift(wire.getJobDescriptors());
    List<Boolean> duplicates = wire.getDuplicates();
    if (duplicates != null && duplicates.size() != jobs.size()) {
      throw QueueException.invalid(
          "the enqueue response has "
              + duplicates.size()
              + " duplicate flags for "
              + jobs.size()
              + " descriptors; expected one per job");
    }
    List<EnqueueOutcome> outcomes = new ArrayList<>(jobs.size());
    for (int i = 0; i < jobs.size(); i++) {
      outcomes.add(new EnqueueOutcome(jobs.get(i), duplicates != null && duplicates.get(i)));
    }
    return outcomes;
  }

  public static List<NewJob> jobsFromThrift(List<PinLaterJob> wire) {
    List<NewJob> jobs = new ArrayList<>(wire.size());
    for (PinLaterJob job : wire) {
      jobs.add(fromThrift(job));
    }
    return jobs;
  }

  public static List<PinLaterJob> jobsToThrift(List<NewJob> jobs) {
    List<PinLaterJob> wire = new ArrayList<>(jobs.size());
    for (NewJob job : jobs) {
      wire.add(toThrift(job));
    }
    return wire;
  }

  // ---- descriptors ----

  public static List<JobDescriptor> descriptorsFromThrift(List<String> wire) {
    List<JobDescriptor> jobs = new ArrayList<>(wire.size());
    for (String text : wire) {
      jobs.add(JobDescriptor.parse(text));
    }
    return jobs;
  }

  public static List<String> descriptorsToThrift(List<JobDescriptor> jobs) {
    List<String> wire = new ArrayList<>(jobs.size());
    for (JobDescriptor job : jobs) {
      wire.add(job.toString());
    }
    return wire;
  }

  // ---- acks ----

  public static PinLaterJobAckRequest toThrift(AckParams ack) {
    PinLaterJobAckRequest wire = new PinLaterJobAckRequest(ack.queue());
    wire.setJobsSucceeded(ackItemsToThrift(ack.succeeded()));
    wire.setJobsFailed(ackItemsToThrift(ack.failed()));
    return wire;
  }

  public static AckParams fromThrift(PinLaterJobAckRequest wire) {
    return new AckParams(
        wire.getQueueName(),
        ackItemsFromThrift(wire.getJobsSucceeded()),
        ackItemsFromThrift(wire.getJobsFailed()));
  }

  private static List<PinLaterJobAckInfo> ackItemsToThrift(List<AckParams.Item> items) {
    List<PinLaterJobAckInfo> wire = new ArrayList<>(items.size());
    for (AckParams.Item item : items) {
      PinLaterJobAckInfo info = new PinLaterJobAckInfo(item.job().toString());
      info.setAppendCustomStatus(item.appendCustomStatus());
      info.setRetryDelayMillis(item.retryDelay().toMillis());
      wire.add(info);
    }
    return wire;
  }

  private static List<AckParams.Item> ackItemsFromThrift(List<PinLaterJobAckInfo> wire) {
    if (wire == null) {
      return List.of();
    }
    List<AckParams.Item> items = new ArrayList<>(wire.size());
    for (PinLaterJobAckInfo info : wire) {
      items.add(
          new AckParams.Item(
              JobDescriptor.parse(info.getJobDescriptor()),
              info.getAppendCustomStatus(),
              Duration.ofMillis(info.getRetryDelayMillis())));
    }
    return items;
  }

  // ---- dequeue ----

  public static PinLaterDequeueRequest toThrift(DequeueParams params) {
    PinLaterDequeueRequest wire = new PinLaterDequeueRequest(params.queue(), params.limit());
    if (params.dryRun()) {
      wire.setDryRun(true);
    }
    if (params.coverage() != 1.0) {
      wire.setCoverage(params.coverage());
    }
    if (params.ack() != null && !params.ack().isEmpty()) {
      wire.setJobAckRequest(toThrift(params.ack()));
    }
    return wire;
  }

  /** The dequeue described by {@code wire}, claimed for {@code source}. */
  public static DequeueParams fromThrift(PinLaterDequeueRequest wire, String source) {
    AckParams ack = wire.isSetJobAckRequest() ? fromThrift(wire.getJobAckRequest()) : null;
    return new DequeueParams(
        wire.getQueueName(), wire.getLimit(), source, wire.isDryRun(), wire.getCoverage(), ack);
  }

  /** Always sets both maps, empty when no job came back (the original left them unset). */
  public static PinLaterDequeueResponse toThrift(List<DequeuedJob> jobs) {
    Map<String, ByteBuffer> bodies = new LinkedHashMap<>();
    Map<String, PinLaterDequeueMetadata> metadata = new LinkedHashMap<>();
    for (DequeuedJob job : jobs) {
      String descriptor = job.descriptor().toString();
      bodies.put(descriptor, ByteBuffer.wrap(job.body()));
      PinLaterDequeueMetadata meta = new PinLaterDequeueMetadata();
      meta.setAttemptsAllowed(job.attemptsAllowed());
      meta.setAttemptsRemaining(job.attemptsRemaining());
      metadata.put(descriptor, meta);
    }
    return new PinLaterDequeueResponse().setJobs(bodies).setJobMetadata(metadata);
  }

  /** Tolerates unset maps and missing metadata (attempt counts then read 0). */
  public static List<DequeuedJob> fromThrift(PinLaterDequeueResponse wire) {
    if (wire.getJobs() == null || wire.getJobs().isEmpty()) {
      return List.of();
    }
    Map<String, PinLaterDequeueMetadata> metadata =
        wire.getJobMetadata() == null ? Map.of() : wire.getJobMetadata();
    List<DequeuedJob> jobs = new ArrayList<>(wire.getJobs().size());
    for (Map.Entry<String, ByteBuffer> entry : wire.getJobs().entrySet()) {
      PinLaterDequeueMetadata meta = metadata.get(entry.getKey());
      int allowed = meta == null ? 0 : meta.getAttemptsAllowed();
      int remaining = meta == null ? 0 : meta.getAttemptsRemaining();
      jobs.add(
          new DequeuedJob(
              JobDescriptor.parse(entry.getKey()), bytes(entry.getValue()), allowed, remaining));
    }
    return jobs;
  }

  // ---- checkpoint ----

  /**
   * A checkpoint as sent on the wire. {@code newBody} is a Thrift string there, so the body must be
   * valid UTF-8 to survive the trip (the Java runtime decodes it as UTF-8).
   */
  public static PinLaterCheckpointJobRequest toThrift(CheckpointParams params) {
    PinLaterCheckpointJobRequest wire = new PinLaterCheckpointJobRequest(params.job().toString());
    if (params.newBody() != null) {
      wire.setNewBody(new String(params.newBody(), StandardCharsets.UTF_8));
    }
    if (params.moveToPending()) {
      wire.setMoveToPending(true);
    }
    if (params.runAfter() != null) {
      wire.setRunAfterTimestampMillis(params.runAfter().toEpochMilli());
    }
    if (params.attemptsAllowed() != null) {
      wire.setNumOfAttemptsAllowed(params.attemptsAllowed());
    }
    if (params.prependCustomStatus() != null) {
      wire.setPrependCustomStatus(params.prependCustomStatus());
    }
    return wire;
  }

  public static CheckpointParams fromThrift(PinLaterCheckpointJobRequest wire) {
    return new CheckpointParams(
        JobDescriptor.parse(wire.getJobDescriptor()),
        wire.isSetNewBody() ? wire.getNewBody().getBytes(StandardCharsets.UTF_8) : null,
        wire.isMoveToPending(),
        wire.isSetRunAfterTimestampMillis()
            ? Instant.ofEpochMilli(wire.getRunAfterTimestampMillis())
            : null,
        wire.isSetNumOfAttemptsAllowed() ? wire.getNumOfAttemptsAllowed() : null,
        wire.isSetPrependCustomStatus() ? wire.getPrependCustomStatus() : null);
  }

  // ---- lookup and scan ----

  public static PinLaterJobInfo toThrift(JobInfo info) {
    PinLaterJobInfo wire =
        new PinLaterJobInfo(
            info.descriptor().toString(),
            toThrift(info.state()),
            info.attemptsAllowed(),
            info.attemptsRemaining(),
            info.customStatus() == null ? "" : info.customStatus(),
            info.createdAt().toEpochMilli());
    if (info.runAfter() != null) {
      wire.setRunAfterTimestampMillis(info.runAfter().toEpochMilli());
    }
    if (info.updatedAt() != null) {
      wire.setUpdatedAtTimestampMillis(info.updatedAt().toEpochMilli());
    }
    if (info.claimDescriptor() != null) {
      wire.setClaimDescriptor(info.claimDescriptor());
    }
    if (info.body() != null) {
      wire.setBody(info.body());
    }
    return wire;
  }

  public static JobInfo fromThrift(PinLaterJobInfo wire) {
    return new JobInfo(
        JobDescriptor.parse(wire.getJobDescriptor()),
        fromThrift(wire.getJobState(), "jobState"),
        wire.getAttemptsAllowed(),
        wire.getAttemptsRemaining(),
        wire.getCustomStatus(),
        Instant.ofEpochMilli(wire.getCreatedAtTimestampMillis()),
        wire.isSetRunAfterTimestampMillis()
            ? Instant.ofEpochMilli(wire.getRunAfterTimestampMillis())
            : null,
        wire.isSetUpdatedAtTimestampMillis()
            ? Instant.ofEpochMilli(wire.getUpdatedAtTimestampMillis())
            : null,
        wire.getClaimDescriptor(),
        wire.isSetBody() ? wire.getBody() : null);
  }

  public static PinLaterScanJobsRequest toThrift(ScanParams params) {
    PinLaterScanJobsRequest wire =
        new PinLaterScanJobsRequest(params.queue()).setJobState(toThrift(params.state()));
    if (params.priority() != null) {
      wire.setPriority(narrowPriority(params.priority()));
    }
    wire.setScanFutureJobs(params.future());
    wire.setContinuation(params.continuation());
    wire.setLimit(params.limit());
    if (params.bodyRegex() != null) {
      wire.setBodyRegexToMatch(params.bodyRegex());
    }
    return wire;
  }

  public static ScanParams fromThrift(PinLaterScanJobsRequest wire) {
    return new ScanParams(
        wire.getQueueName(),
        fromThrift(wire.getJobState(), "jobState"),
        wire.isSetPriority() ? Integer.valueOf(wire.getPriority()) : null,
        wire.isScanFutureJobs(),
        wire.getContinuation(),
        wire.getLimit(),
        wire.getBodyRegexToMatch());
  }

  public static PinLaterScanJobsResponse toThrift(ScanPage page) {
    List<PinLaterJobInfo> jobs = new ArrayList<>(page.jobs().size());
    for (JobInfo info : page.jobs()) {
      jobs.add(toThrift(info));
    }
    return new PinLaterScanJobsResponse(jobs).setContinuation(page.continuation());
  }

  public static ScanPage fromThrift(PinLaterScanJobsResponse wire) {
    List<JobInfo> jobs = new ArrayList<>(wire.getScannedJobsSize());
    if (wire.getScannedJobs() != null) {
      for (PinLaterJobInfo info : wire.getScannedJobs()) {
        jobs.add(fromThrift(info));
      }
    }
    return new ScanPage(jobs, wire.getContinuation());
  }

  // ---- count, retry, delete ----

  public static PinLaterGetJobCountRequest toThrift(CountParams params) {
    PinLaterGetJobCountRequest wire =
        new PinLaterGetJobCountRequest(params.queue()).setJobState(toThrift(params.state()));
    if (params.priority() != null) {
      wire.setPriority(narrowPriority(params.priority()));
    }
    wire.setCountFutureJobs(params.future());
    if (params.bodyRegex() != null) {
      wire.setBodyRegexToMatch(params.bodyRegex());
    }
    return wire;
  }

  public static CountParams fromThrift(PinLaterGetJobCountRequest wire) {
    return new CountParams(
        wire.getQueueName(),
        fromThrift(wire.getJobState(), "jobState"),
        wire.isSetPriority() ? Integer.valueOf(wire.getPriority()) : null,
        wire.isCountFutureJobs(),
        wire.getBodyRegexToMatch());
  }

  public static PinLaterRetryFailedJobsRequest toThrift(RetryFailedParams params) {
    PinLaterRetryFailedJobsRequest wire = new PinLaterRetryFailedJobsRequest(params.queue());
    wire.setPriority(narrowPriority(params.priority()));
    wire.setAttemptsToAllow(params.attemptsToAllow());
    wire.setLimit(params.limit());
    if (params.runAfter() != null) {
      wire.setRunAfterTimestampMillis(params.runAfter().toEpochMilli());
    }
    return wire;
  }

  public static RetryFailedParams fromThrift(PinLaterRetryFailedJobsRequest wire) {
    return new RetryFailedParams(
        wire.getQueueName(),
        wire.getPriority(),
        wire.getAttemptsToAllow(),
        wire.isSetRunAfterTimestampMillis()
            ? Instant.ofEpochMilli(wire.getRunAfterTimestampMillis())
            : null,
        wire.getLimit());
  }

  public static PinLaterDeleteJobsRequest toThrift(DeleteJobsParams params) {
    PinLaterDeleteJobsRequest wire =
        new PinLaterDeleteJobsRequest(params.queue()).setJobState(toThrift(params.state()));
    wire.setPriority(narrowPriority(params.priority()));
    wire.setLimit(params.limit());
    if (params.bodyRegex() != null) {
      wire.setBodyRegexToMatch(params.bodyRegex());
    }
    return wire;
  }

  public static DeleteJobsParams fromThrift(PinLaterDeleteJobsRequest wire) {
    return new DeleteJobsParams(
        wire.getQueueName(),
        fromThrift(wire.getJobState(), "jobState"),
        wire.getPriority(),
        wire.getBodyRegexToMatch(),
        wire.getLimit());
  }

  // ---- helpers ----

  /**
   * Priorities travel as a signed byte; refuse values that would wrap instead of sending a
   * different one.
   */
  private static byte narrowPriority(int priority) {
    if (priority < Byte.MIN_VALUE || priority > Byte.MAX_VALUE) {
      throw new QueueException(
          ErrorCode.PRIORITY_NOT_SUPPORTED,
          "priority " + priority + " does not fit the protocol's byte field (-128..127)");
    }
    return (byte) priority;
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer copy = buffer.duplicate();
    byte[] out = new byte[copy.remaining()];
    copy.get(out);
    return out;
  }
}
