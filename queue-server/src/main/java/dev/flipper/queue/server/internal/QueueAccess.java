package dev.flipper.queue.server.internal;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.queue.thrift.ErrorCode;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.tls.Peer;
import dev.flipper.tls.Role;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.thrift.async.AsyncMethodCallback;

/**
 * Which PinLater calls each role may make when the server runs TLS (docs/security.md):
 * applications, workers and the scheduler use queues; the UI and operators also create, pause and
 * retry; only admins delete. The master and queue servers call no queue. A refused call is answered
 * PASSWORD_INVALID ("role app may not deleteJobs") and counted as {@code queue.refused.<role>}; the
 * queue admin password, where a call needs it, still applies. Without TLS every call is admitted,
 * as PinLater did. Thread-safe.
 *
 * <p>The caller is known from its connection: libthrift runs a call on the selector thread that
 * read it, right after reading its last byte ({@link InlineInvoker}), so the connection names its
 * peer for that thread ({@link #callFrom}) and the handler asks here before doing anything.
 */
public final class QueueAccess {
  private static final ThreadLocal<Peer> CALLER = new ThreadLocal<>();

  private static final Set<String> USE =
      Set.of(
          "enqueueJobs",
          "dequeueJobs",
          "ackDequeuedJobs",
          "checkpointJobs",
          "lookupJobs",
          "scanJobs",
          "getJobCount",
          "getQueueNames",
          "getPausedQueues");

  private static final Set<String> OPERATE =
      union(USE, Set.of("createQueue", "retryFailedJobs", "retryJob", "setQueuePaused"));

  private static final Set<String> ADMINISTER =
      union(OPERATE, Set.of("deleteQueue", "deleteJobs", "deleteJob"));

  private static final Map<Role, Set<String>> ALLOWED = new EnumMap<>(Role.class);

  static {
    for (Role role : Role.values()) {
      ALLOWED.put(
          role,
          switch (role) {
            case APP, WORKER, SCHEDULER -> USE;
            case UI, OPERATOR -> OPERATE;
            case ADMIN -> ADMINISTER;
            case MASTER, QUEUE -> Set.of();
          });
    }
  }

  private final boolean enforced;
  private final MetricRegistry metrics;

  private QueueAccess(boolean enforced, MetricRegistry metrics) {
    this.enforced = enforced;
    this.metrics = metrics;
  }

  /** Every call admitted: the server runs without TLS. */
  public static QueueAccess open() {
    return new QueueAccess(false, null);
  }

  /** Calls admitted by the caller's role; refusals counted in {@code metrics}. */
  public static QueueAccess byRole(MetricRegistry metrics) {
    return new QueueAccess(true, metrics);
  }

  /** Whether {@code role} may make {@code method} calls. */
  public static boolean allows(Role role, String method) {
    return ALLOWED.get(role).contains(method);
  }

  /** The connection whose call this thread runs next (TLS connections, after their handshake). */
  static void callFrom(Peer peer) {
    CALLER.set(peer);
  }

  /**
   * True if this thread's caller may make {@code method} calls; otherwise answers {@code callback}
   * with the refusal and returns false.
   */
  boolean admit(String method, AsyncMethodCallback<?> callback) {
    if (!enforced) {
      return true;
    }
    Peer caller = CALLER.get();
    if (caller != null && allows(caller.role(), method)) {
      return true;
    }
    String role = caller == null ? "unknown" : caller.role().label();
    metrics.counter("queue.refused." + role).inc();
    callback.onError(
        new PinLaterException(
            ErrorCode.PASSWORD_INVALID,
            "role "
                + role
                + " may not "
                + method
                + (caller == null ? "" : " (certificate \"" + caller.name() + "\")")));
    return false;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    HashSet<String> all = new HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
