// Flipper's token master protocol: Pinball's TokenMasterService, wire-compatible with the original master.
//
// Method names, struct field ids and types, and the enum values must not change: Pinball's Python clients
// (workers, scheduler, UI, pinball_util) talk to Flipper through them. One deliberate difference in
// requiredness, which is not on the wire: Token.version is `optional` here (the original said `required`)
// because Pinball's clients leave it unset when they insert, and a Java server rejects a missing required
// field. Version 0 and an unset version both mean "no version".
//
// Transport: TSocket + TBinaryProtocol, unframed (Pinball: TThreadedServer with TBufferedTransport; buffering
// is not on the wire). Default port 9090. See docs/tokens.md. Code is generated with scripts/gen-thrift.sh
// and committed.

namespace java dev.flipper.workflow.master.thrift
namespace py flipper_master_thrift

// A named, versioned unit of state with an optional lease.
struct Token {
  // Unique id of this token instance; the master assigns a new one on every write and never reuses one.
  1: optional i64 version,
  // Unique, immutable key; hierarchical with '/'. Flipper: visible ASCII, at most 1024 characters.
  2: required string name,
  // Lease holder; unset or empty means nobody.
  3: optional string owner,
  // Lease end in seconds since the epoch. Owned = owner non-empty and expirationTime non-zero and in the future.
  4: optional i64 expirationTime,
  // Higher is preferred, strictly.
  5: optional double priority = 0,
  // Application payload (Flipper's token kinds store JSON).
  6: optional string data,
}

enum ErrorCode {
  UNKNOWN = 0,
  // The request's version of a token is not the stored one.
  VERSION_CONFLICT = 1,
  // A token named with a version does not exist.
  NOT_FOUND = 2,
  // The request is malformed (missing version, bad name, duplicate token).
  INPUT_ERROR = 3,
}

exception TokenMasterException {
  1: ErrorCode errorCode,
  2: string errorMessage,
}

struct ArchiveRequest {
  1: optional list<Token> tokens,
  // Flipper extension (Pinball's clients never send it): the instance's run and job executions, recorded in the
  // run history in the same transaction as the tokens are archived (replacing an earlier record of the instance).
  // A Pinball master skips the field: it archives the tokens and records nothing.
  2: optional RunArchive run,
}

// Counts tokens under namePrefix by group: the name up to, not including, the first groupSuffix after the
// prefix (the whole name if there is none).
struct GroupRequest {
  1: optional string namePrefix,
  2: optional string groupSuffix,
}

struct GroupResponse {
  // Unset when namePrefix is empty.
  1: optional map<string, i32> counts,
}

// All updates and deletes apply, or none. An update without version inserts.
struct ModifyRequest {
  1: optional list<Token> updates,
  2: optional list<Token> deletes,
}

struct ModifyResponse {
  // The written updates with their new versions, in request order.
  1: optional list<Token> updates,
}

struct Query {
  1: optional string namePrefix,
  // Unset: every match, in name order. Set: that many matches, by priority descending, then name.
  2: optional i32 maxTokens,
}

struct QueryRequest {
  1: optional list<Query> queries,
}

struct QueryResponse {
  // One list per query, in request order.
  1: optional list<list<Token>> tokens,
}

struct QueryAndOwnRequest {
  1: optional string owner,
  2: i64 expirationTime,
  3: optional Query query,
  // Flipper extension (Pinball's clients never send it): when nothing under the prefix is claimable, wait up
  // to this many milliseconds for something to become claimable, and answer as soon as something is claimed.
  // Unset or 0: answer at once, as Pinball's master. The master shortens longer waits to its limit (30 s by
  // default) and may end a wait early (an empty answer, for example when it shuts down). A Pinball master
  // ignores the field and answers at once. The client's socket read time-out must exceed the wait.
  4: optional i64 waitTimeMillis,
}

struct QueryAndOwnResponse {
  1: optional list<Token> tokens,
}

// Flipper extension: archived tokens (those moved by archive) under namePrefix (required; "" reads all), by
// name, then version; the same name may have been archived more than once. One page of at most maxTokens (1 to 1000; unset: 1000);
// the next page starts after the last token of this one (afterName and afterVersion, both set or neither).
// A page shorter than maxTokens is the last. Pinball's master does not have this method.
struct ArchivedQueryRequest {
  1: optional string namePrefix,
  2: optional i32 maxTokens,
  3: optional string afterName,
  4: optional i64 afterVersion,
}

struct ArchivedQueryResponse {
  1: optional list<Token> tokens,
}

// Flipper extension: deletes the archived tokens under a non-empty namePrefix for good.
struct DeleteArchivedRequest {
  1: optional string namePrefix,
}

struct DeleteArchivedResponse {
  // How many archived tokens were deleted.
  1: optional i32 deleted,
}

// Flipper extension, the run history (docs/tokens.md#wire-protocol): one row per finished workflow instance and
// per job execution, written by archive (ArchiveRequest.run) and read in filtered, sorted pages. Values are
// queue-core's dev.flipper.history records; times are epoch milliseconds.

// One name=value pair of an ordered map (instance parameters, log URLs by log name): a Thrift map would lose
// the order.
struct NamedValue {
  1: optional string name,
  2: optional string value,
}

// One finished workflow instance. workflow, instance, status and startMillis are required.
struct RunRecord {
  1: optional string workflow,
  2: optional string instance,
  // The final status: SUCCESS, FAILURE, ABORTED, ...
  3: optional string status,
  // The trigger: scheduler, cli, ui, backfill, retry, ...; unset: "".
  4: optional string startedBy,
  5: optional i64 startMillis,
  // Unset only for a record written before the instance ended.
  6: optional i64 endMillis,
  // The instance's parameters, in their given order; names unique.
  7: optional list<NamedValue> params,
  // Jobs that failed for good, in the order they failed.
  8: optional list<string> failedJobs,
}

// One execution (attempt) of a job in a finished instance. workflow, instance, job, execution, attempt, status
// and startMillis are required.
struct ExecutionRecord {
  1: optional string workflow,
  2: optional string instance,
  3: optional string job,
  // 1-based number of the execution in the job's lineage within its instance.
  4: optional i32 execution,
  // 1-based attempt within the job's current run.
  5: optional i32 attempt,
  // SUCCESS (exit code 0), FAILURE, ABORTED, DISABLED, ...
  6: optional string status,
  7: optional i64 startMillis,
  // Unset while the execution has no end.
  8: optional i64 endMillis,
  // Unset when the process never exited (lease lost, aborted).
  9: optional i32 exitCode,
  // Unset: "".
  10: optional string worker,
  // Unset: "".
  11: optional string host,
  // Why it ended other than by exiting, e.g. "lease lost"; unset: none.
  12: optional string endReason,
  // Log name (stdout, stderr) to the URL the worker serves it at, in order; names unique.
  13: optional list<NamedValue> logs,
}

// What archive records: the run (required) and every execution of its jobs, each of the run's workflow and
// instance.
struct RunArchive {
  1: optional RunRecord run,
  2: optional list<ExecutionRecord> executions,
}

// One page of runs. Every filter is optional (unset or empty: any); all given filters must hold.
struct QueryRunsRequest {
  // Unset: every workflow.
  1: optional string workflow,
  2: optional set<string> statuses,
  3: optional set<string> startedBy,
  // Runs that started at or after this epoch millisecond.
  4: optional i64 startFrom,
  // Runs that started before this epoch millisecond.
  5: optional i64 startBefore,
  // Runs whose instance name, trigger or a parameter (as key=value) contains this, ignoring case.
  6: optional string text,
  // NEWEST (unset: latest start first), OLDEST, LONGEST or SHORTEST; ties by workflow, then instance.
  7: optional string sort,
  // Matching runs to skip; unset: 0.
  8: optional i32 offset,
  // The page size, 1 to 1000; unset: 1000.
  9: optional i32 limit,
}

struct QueryRunsResponse {
  1: optional list<RunRecord> runs,
  // How many runs match the query in all.
  2: optional i64 total,
}

// One page of a workflow's job executions, newest start first (ties by instance, job, execution).
struct QueryExecutionsRequest {
  // Required.
  1: optional string workflow,
  // Unset: every job.
  2: optional string job,
  // Executions of these instances only (at most 1000); unset or empty: any.
  3: optional list<string> instances,
  // Unset or empty: any status.
  4: optional set<string> statuses,
  // Unset: 0.
  5: optional i32 offset,
  // 1 to 1000; unset: 1000.
  6: optional i32 limit,
}

struct QueryExecutionsResponse {
  1: optional list<ExecutionRecord> executions,
  // How many executions match the query in all.
  2: optional i64 total,
}

// Deletes one instance's run and executions from the run history (its archived tokens stay).
struct DeleteRunRequest {
  1: optional string workflow,
  2: optional string instance,
}

struct DeleteRunResponse {
  // How many rows were deleted (0 if the instance was not recorded).
  1: optional i32 deleted,
}

service TokenMasterService {
  void archive(1: ArchiveRequest request) throws (1: TokenMasterException e),

  GroupResponse group(1: GroupRequest request) throws (1: TokenMasterException e),

  ModifyResponse modify(1: ModifyRequest request) throws (1: TokenMasterException e),

  QueryResponse query(1: QueryRequest request) throws (1: TokenMasterException e),

  QueryAndOwnResponse query_and_own(1: QueryAndOwnRequest request) throws (1: TokenMasterException e),

  // Flipper extensions, new methods only: Pinball's clients never call them.
  ArchivedQueryResponse query_archived(1: ArchivedQueryRequest request) throws (1: TokenMasterException e),

  DeleteArchivedResponse delete_archived(1: DeleteArchivedRequest request) throws (1: TokenMasterException e),

  QueryRunsResponse query_runs(1: QueryRunsRequest request) throws (1: TokenMasterException e),

  QueryExecutionsResponse query_executions(1: QueryExecutionsRequest request) throws (1: TokenMasterException e),

  DeleteRunResponse delete_run(1: DeleteRunRequest request) throws (1: TokenMasterException e),
}
