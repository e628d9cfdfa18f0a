// Flipper's queue protocol: the PinLater Thrift interface, wire-compatible with the original service.
//
// PinLater declared the priority fields as `byte`, an alias of i8: same wire type (3).
// Field ids, types, requiredness and defaults must not change: existing PinLater clients and workers
// (Finagle, Apache Thrift, Python) talk to Flipper through them. Transport: framed, TBinaryProtocol.
// See docs/thrift.md. Code is generated with scripts/gen-thrift.sh and committed.

namespace java dev.flipper.queue.thrift
namespace py flipper_thrift
namespace cpp flipper.queue

// scanJobs continuations: the first page, and "no more pages".
const string CONTINUATION_START = "0"
const string CONTINUATION_END = "-1"

enum ErrorCode {
  // scanJobs: the continuation is not one this service issued.
  CONTINUATION_INVALID = 400,
  // deleteQueue, deleteJobs, retryFailedJobs, setQueuePaused: the password does not match the configured admin
  // hash (or none is configured).
  PASSWORD_INVALID = 403,
  // createQueue: the name is not [A-Za-z0-9_]+.
  QUEUE_NAME_INVALID = 410,
  QUEUE_NAME_TOO_LONG = 411,
  QUEUE_NOT_FOUND = 413,
  // enqueue: priority outside 1..number of priority levels.
  PRIORITY_NOT_SUPPORTED = 416,
  // dequeue refused by the queue's maxJobsPerSecond limit.
  DEQUEUE_RATE_LIMITED = 429,
  ENQUEUE_REJECTED = 430,
  // Any other failure, including invalid arguments; the message says what was wrong.
  UNKNOWN = 500,
  NO_HEALTHY_SHARDS = 501,
  SHARD_CONNECTION_FAILED = 502
}

enum PinLaterJobState {
  PENDING = 0,
  IN_PROGRESS = 1,
  SUCCEEDED = 2,
  FAILED = 3
}

// Identifies the caller. source ("service:host") also owns the claims made by its dequeues.
struct RequestContext {
  1: required string source,
  2: optional string requestId = ""
}

exception PinLaterException {
  1: required ErrorCode errorCode,
  2: required string message
}

struct PinLaterJob {
  // Opaque bytes.
  1: required binary body,
  // 1 is the highest priority.
  2: optional i8 priority = 1,
  // Epoch milliseconds; unset means now.
  3: optional i64 runAfterTimestampMillis,
  // Total attempts, the first one included.
  4: optional i32 numAttemptsAllowed = 2,
  5: optional string customStatus = "",
  // Flipper: unique jobs (docs/queue.md). While a job of the queue holds this key, enqueueing
  // another job with it stores nothing and returns the holder's descriptor. 1..128 characters of
  // [A-Za-z0-9_.:/@=+-]. PinLater servers ignore it.
  6: optional string uniqueKey,
  // Flipper: hold the key for this long from enqueue, whatever becomes of the job; unset holds it
  // while the job is pending or running. Only with uniqueKey.
  7: optional i64 uniqueForMillis
}

struct PinLaterEnqueueRequest {
  1: required string queueName,
  2: required list<PinLaterJob> jobs
}

struct PinLaterEnqueueResponse {
  // One descriptor per job, in request order.
  1: required list<string> jobDescriptors,
  // Flipper: one flag per job, in request order, set when the request has a job with a uniqueKey:
  // true if the job was a duplicate (its descriptor is the holder's and nothing was stored).
  2: optional list<bool> duplicates
}

struct PinLaterJobAckInfo {
  1: required string jobDescriptor,
  2: optional string appendCustomStatus = "",
  // For a failed job with attempts left: delay before it may run again.
  3: optional i64 retryDelayMillis = 0
}

struct PinLaterJobAckRequest {
  1: required string queueName,
  2: optional list<PinLaterJobAckInfo> jobsSucceeded,
  3: optional list<PinLaterJobAckInfo> jobsFailed
}

struct PinLaterDequeueRequest {
  1: required string queueName,
  // Most jobs to return; must be > 0.
  2: required i32 limit,
  // Acks applied by the same call.
  3: optional PinLaterJobAckRequest jobAckRequest,
  // Return eligible jobs without claiming them.
  4: optional bool dryRun = false,
  // Fraction of shards to visit, 0..1.
  5: optional double coverage = 1.0
}

// Attempt counts as stored before this attempt.
struct PinLaterDequeueMetadata {
  1: optional i32 attemptsAllowed,
  2: optional i32 attemptsRemaining
}

struct PinLaterDequeueResponse {
  // Descriptor to body.
  1: optional map<string, binary> jobs,
  // Descriptor to attempt counts.
  2: optional map<string, PinLaterDequeueMetadata> jobMetadata
}

struct PinLaterCheckpointJobRequest {
  1: required string jobDescriptor,
  // Replaces the body. A string on the wire, for compatibility.
  2: optional string newBody,
  3: optional bool moveToPending = false,
  // Unset means now; also restarts the claim time-out.
  4: optional i64 runAfterTimestampMillis,
  // Sets both attempts allowed and remaining.
  5: optional i32 numOfAttemptsAllowed,
  6: optional string prependCustomStatus
}

struct PinLaterCheckpointJobsRequest {
  1: required string queueName,
  2: required list<PinLaterCheckpointJobRequest> requests
}

struct PinLaterLookupJobRequest {
  1: required list<string> jobDescriptors,
  2: optional bool includeBody = false
}

// Field 10 is declared between 2 and 3, as in the original interface.
struct PinLaterJobInfo {
  1: required string jobDescriptor,
  2: required PinLaterJobState jobState,
  10: required i32 attemptsAllowed,
  3: required i32 attemptsRemaining,
  4: required string customStatus,
  5: required i64 createdAtTimestampMillis,
  6: optional i64 runAfterTimestampMillis,
  7: optional i64 updatedAtTimestampMillis,
  // Unset when the job was never claimed or its claim was released.
  8: optional string claimDescriptor,
  // Only for lookups with includeBody.
  9: optional binary body
}

struct PinLaterGetJobCountRequest {
  1: required string queueName,
  // Optional only in the IDL (the wire is PinLater's): an unknown value then reaches the server as unset and
  // is refused as "missing or unknown", not as a missing required field.
  2: optional PinLaterJobState jobState,
  // Unset means all priorities.
  3: optional i8 priority,
  4: optional bool countFutureJobs = false,
  5: optional string bodyRegexToMatch
}

struct PinLaterScanJobsRequest {
  1: required string queueName,
  // Optional only in the IDL (the wire is PinLater's): an unknown value then reaches the server as unset and
  // is refused as "missing or unknown", not as a missing required field.
  2: optional PinLaterJobState jobState,
  // Unset means all priorities.
  3: optional i8 priority,
  4: optional bool scanFutureJobs = false,
  5: optional string continuation = CONTINUATION_START,
  6: optional i32 limit = 100,
  7: optional string bodyRegexToMatch
}

struct PinLaterScanJobsResponse {
  1: required list<PinLaterJobInfo> scannedJobs,
  2: optional string continuation = CONTINUATION_END
}

struct PinLaterRetryFailedJobsRequest {
  1: required string queueName,
  2: optional i8 priority = 1,
  3: optional i32 attemptsToAllow = 1,
  // Unset means now.
  4: optional i64 runAfterTimestampMillis,
  5: optional i32 limit = 1000,
  // Flipper's addition: the queue admin password, as deleteQueue's (PinLater's clients do not send it, and
  // are refused).
  6: optional string password
}

struct PinLaterDeleteJobsRequest {
  1: required string queueName,
  // Optional only in the IDL (the wire is PinLater's): an unknown value then reaches the server as unset and
  // is refused as "missing or unknown", not as a missing required field.
  2: optional PinLaterJobState jobState,
  3: optional i8 priority = 1,
  4: optional string bodyRegexToMatch,
  5: optional i32 limit = 1000,
  // Flipper's addition: the queue admin password, as deleteQueue's (PinLater's clients do not send it, and
  // are refused).
  6: optional string password
}

service PinLater {
  void createQueue(1: RequestContext context, 2: string name)
      throws (1: PinLaterException e)

  void deleteQueue(1: RequestContext context, 2: string name, 3: string password)
      throws (1: PinLaterException e)

  PinLaterEnqueueResponse enqueueJobs(1: RequestContext context, 2: PinLaterEnqueueRequest request)
      throws (1: PinLaterException e)

  PinLaterDequeueResponse dequeueJobs(1: RequestContext context, 2: PinLaterDequeueRequest request)
      throws (1: PinLaterException e)

  void ackDequeuedJobs(1: RequestContext context, 2: PinLaterJobAckRequest request)
      throws (1: PinLaterException e)

  void checkpointJobs(1: RequestContext context, 2: PinLaterCheckpointJobsRequest request)
      throws (1: PinLaterException e)

  map<string, PinLaterJobInfo> lookupJobs(1: RequestContext context, 2: PinLaterLookupJobRequest request)
      throws (1: PinLaterException e)

  i32 getJobCount(1: RequestContext context, 2: PinLaterGetJobCountRequest request)
      throws (1: PinLaterException e)

  set<string> getQueueNames(1: RequestContext context)
      throws (1: PinLaterException e)

  PinLaterScanJobsResponse scanJobs(1: RequestContext context, 2: PinLaterScanJobsRequest request)
      throws (1: PinLaterException e)

  i32 retryFailedJobs(1: RequestContext context, 2: PinLaterRetryFailedJobsRequest request)
      throws (1: PinLaterException e)

  i32 deleteJobs(1: RequestContext context, 2: PinLaterDeleteJobsRequest request)
      throws (1: PinLaterException e)

  // Flipper's additions (PinLater clients never call them, so the interface stays compatible).

  // Deletes one job, in any state; false if it does not exist (QUEUE_NOT_FOUND if its queue does not).
  bool deleteJob(1: RequestContext context, 2: string jobDescriptor)
      throws (1: PinLaterException e)

  // Moves one FAILED job back to PENDING, runnable now, with attemptsToAllow attempts remaining (as
  // retryFailedJobs does for many); false if it does not exist or is not FAILED (QUEUE_NOT_FOUND if its queue
  // does not exist).
  bool retryJob(1: RequestContext context, 2: string jobDescriptor, 3: i32 attemptsToAllow = 1)
      throws (1: PinLaterException e)

  // Pauses (paused = true) or resumes dequeues of a queue: its dequeues return no job, everything else works.
  // Stored with the queue in the shared store, so every queue server applies it (within queue.pauseRefresh).
  // Needs the queue admin password, as deleteQueue.
  void setQueuePaused(1: RequestContext context, 2: string name, 3: bool paused, 4: string password)
      throws (1: PinLaterException e)

  // The paused queues.
  set<string> getPausedQueues(1: RequestContext context)
      throws (1: PinLaterException e)
}
