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

service TokenMasterService {
  void archive(1: ArchiveRequest request) throws (1: TokenMasterException e),

  GroupResponse group(1: GroupRequest request) throws (1: TokenMasterException e),

  ModifyResponse modify(1: ModifyRequest request) throws (1: TokenMasterException e),

  QueryResponse query(1: QueryRequest request) throws (1: TokenMasterException e),

  QueryAndOwnResponse query_and_own(1: QueryAndOwnRequest request) throws (1: TokenMasterException e),

  // Flipper extensions, new methods only: Pinball's clients never call them.
  ArchivedQueryResponse query_archived(1: ArchivedQueryRequest request) throws (1: TokenMasterException e),

  DeleteArchivedResponse delete_archived(1: DeleteArchivedRequest request) throws (1: TokenMasterException e),
}
