package dev.flipper.queue.client;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.EnqueueOutcome;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.client.internal.EnqueueCoalescer;
import dev.flipper.queue.client.internal.Transport;
import dev.flipper.queue.client.internal.Transport.Retry;
import dev.flipper.queue.thrift.PinLaterCheckpointJobRequest;
import dev.flipper.queue.thrift.PinLaterCheckpointJobsRequest;
import dev.flipper.queue.thrift.PinLaterDequeueResponse;
import dev.flipper.queue.thrift.PinLaterEnqueueRequest;
import dev.flipper.queue.thrift.PinLaterEnqueueResponse;
import dev.flipper.queue.thrift.PinLaterJobInfo;
import dev.flipper.queue.thrift.PinLaterLookupJobRequest;
import dev.flipper.queue.thrift.PinLaterScanJobsResponse;
import dev.flipper.queue.thrift.RequestContext;
import dev.flipper.queue.wire.WireMapping;
import dev.flipper.thrift.ServerAddress;
import dev.flipper.tls.TlsIdentity;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Java client of a Flipper (or PinLater) queue server over Thrift. Keeps a pool of connections per
 * server, spreads calls over one or several servers (a fixed list or a server-set file), and
 * retries only where that is safe: lookups, counts, scans, queue names and createQueue after any
 * transport failure; every other call only when connecting failed, i.e. before anything was sent.
 * Failures are {@link QueueClientException}s carrying the server's error code, or {@link
 * QueueUnavailableException}.
 *
 * <pre>{@code
 * try (QueueClient queue = QueueClient.builder().server("queue1", 9010).source("mailer").build()) {
 *   List<JobDescriptor> ids = queue.enqueue("mail", List.of(NewJob.of("hello")));
 * }
 * }</pre>
 *
 * <p>Thread-safe; share one instance.
 */
public final class QueueClient implements AutoCloseable {
  /**
   * Limits of one call that carries coalesced single-job enqueues: far below any server's frame
   * limit.
   */
  private static final int MAX_COALESCED_JOBS = 1000;

  private static final long MAX_COALESCED_BYTES = 1 << 20;

  private final Transport transport;
  private final String source;
  private final Duration requestTimeout;
  private final Duration dequeueTimeout;

  /** Sent with the calls that delete or change many jobs; null = none. */
  private final String adminPassword;

  /** False for a {@link #withSource} view: the client it came from closes the connections. */
  private final boolean ownsTransport;

  private final int coalescedCallsInFlight;

  /** Null when single-job enqueues are not coalesced. */
  private final EnqueueCoalescer coalescer;

  private QueueClient(
      Transport transport,
      String source,
      Duration requestTimeout,
      Duration dequeueTimeout,
      String adminPassword,
      boolean ownsTransport,
      int coalescedCallsInFlight) {
    this.transport = transport;
    this.adminPassword = adminPassword;
    this.source = source;
    this.requestTimeout = requestTimeout;
    this.dequeueTimeout = dequeueTimeout;
    this.ownsTransport = ownsTransport;
    this.coalescedCallsInFlight = coalescedCallsInFlight;
    this.coalescer =
        coalescedCallsInFlight == 0
            ? null
            : new EnqueueCoalescer(
                this::send, coalescedCallsInFlight, MAX_COALESCED_JOBS, MAX_COALESCED_BYTES);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Who this client is on the wire (RequestContext.source); dequeues claim jobs for it. */
  public String source() {
    return source;
  }

  /**
   * This client's connections and settings under another source, for {@link ThriftJobQueue}: the
   * protocol carries one source per call. Closing the view does nothing; closing this client closes
   * the connections.
   */
  QueueClient withSource(String otherSource) {
    Builder.requireSource(otherSource);
    return new QueueClient(
        transport,
        otherSource,
        requestTimeout,
        dequeueTimeout,
        adminPassword,
        false,
        coalescedCallsInFlight);
  }

  /** The servers currently in use. */
  public List<ServerAddress> servers() {
    return transport.servers();
  }

  /** Creates the queue; idempotent. */
  public void createQueue(String queue) {
    transport.call(
        "createQueue",
        Retry.ALWAYS,
        requestTimeout,
        api -> {
          api.createQueue(context(), queue);
          return null;
        });
  }

  /** Deletes the queue and its jobs; needs the server's admin password. */
  public void deleteQueue(String queue, String password) {
    transport.call(
        "deleteQueue",
        Retry.IF_NOT_SENT,
        requestTimeout,
        api -> {
          api.deleteQueue(context(), queue, password);
          return null;
        });
  }

  public Set<String> queueNames() {
    return Set.copyOf(
        transport.call(
            "getQueueNames", Retry.ALWAYS, requestTimeout, api -> api.getQueueNames(context())));
  }

  /**
   * Enqueues the jobs and returns their descriptors in the same order. A single job may share its
   * call with the single jobs other threads enqueue into the same queue at the same time (see
   * {@link Builder#coalesceEnqueues(int)}); each caller gets its own descriptor or failure.
   */
  public List<JobDescriptor> enqueue(String queue, List<NewJob> jobs) {
    if (coalescer != null && jobs.size() == 1) {
      return List.of(coalescer.enqueue(queue, jobs.get(0), requestTimeout));
    }
    return send(queue, jobs);
  }

  public JobDescriptor enqueue(String queue, NewJob job) {
    return enqueue(queue, List.of(job)).get(0);
  }

  /**
   * Enqueues the jobs in one call, never coalesced, and says for each whether it was a duplicate of
   * a job holding its unique key (see {@link NewJob#withUniqueKey}). A server that predates unique
   * jobs ignores the keys and reports no duplicates.
   */
  public List<EnqueueOutcome> enqueueWithOutcomes(String queue, List<NewJob> jobs) {
    return WireMapping.outcomesFromThrift(sendRequest(queue, jobs));
  }

  /** One enqueue call with these jobs. */
  private List<JobDescriptor> send(String queue, List<NewJob> jobs) {
    return WireMapping.descriptorsFromThrift(sendRequest(queue, jobs).getJobDescriptors());
  }

  private PinLaterEnqueueResponse sendRequest(String queue, List<NewJob> jobs) {
    PinLaterEnqueueRequest request =
        new PinLaterEnqueueRequest(queue, WireMapping.jobsToThrift(jobs));
    return transport.call(
        "enqueueJobs",
        Retry.IF_NOT_SENT,
        requestTimeout,
        api -> api.enqueueJobs(context(), request));
  }

  /** Claims up to {@code limit} jobs for this client's source. */
  public List<DequeuedJob> dequeue(String queue, int limit) {
    return dequeue(DequeueParams.of(queue, limit, source));
  }

  /**
   * Claims jobs, applying the piggy-backed acks of {@code params} in the same call. The claim is
   * made for this client's source ({@code params.source()} is not sent: the protocol carries one
   * source per call). Waits up to the dequeue time-out, which must exceed the server's long-poll
   * time.
   */
  public List<DequeuedJob> dequeue(DequeueParams params) {
    var request = WireMapping.toThrift(params);
    PinLaterDequeueResponse response =
        transport.call(
            "dequeueJobs",
            Retry.IF_NOT_SENT,
            dequeueTimeout,
            api -> api.dequeueJobs(context(), request));
    return WireMapping.fromThrift(response);
  }

  public void ack(AckParams params) {
    if (params.isEmpty()) {
      return;
    }
    var request = WireMapping.toThrift(params);
    transport.call(
        "ackDequeuedJobs",
        Retry.IF_NOT_SENT,
        requestTimeout,
        api -> {
          api.ackDequeuedJobs(context(), request);
          return null;
        });
  }

  /** Checkpoints jobs this client's source holds; others are silently left alone by the server. */
  public void checkpoint(String queue, List<CheckpointParams> checkpoints) {
    if (checkpoints.isEmpty()) {
      return;
    }
    List<PinLaterCheckpointJobRequest> items = new ArrayList<>(checkpoints.size());
    for (CheckpointParams checkpoint : checkpoints) {
      items.add(WireMapping.toThrift(checkpoint));
    }
    var request = new PinLaterCheckpointJobsRequest(queue, items);
    transport.call(
        "checkpointJobs",
        Retry.IF_NOT_SENT,
        requestTimeout,
        api -> {
          api.checkpointJobs(context(), request);
          return null;
        });
  }

  /** The jobs that exist, in request order; missing jobs are absent. */
  public Map<JobDescriptor, JobInfo> lookup(List<JobDescriptor> jobs, boolean includeBody) {
    if (jobs.isEmpty()) {
      return Map.of();
    }
    List<String> ids = WireMapping.descriptorsToThrift(jobs);
    PinLaterLookupJobRequest request =
        new PinLaterLookupJobRequest(ids).setIncludeBody(includeBody);
    Map<String, PinLaterJobInfo> found =
        transport.call(
            "lookupJobs", Retry.ALWAYS, requestTimeout, api -> api.lookupJobs(context(), request));
    Map<JobDescriptor, JobInfo> result = new LinkedHashMap<>();
    for (int i = 0; i < jobs.size(); i++) {
      PinLaterJobInfo info = found.get(ids.get(i));
      if (info != null) {
        result.put(jobs.get(i), WireMapping.fromThrift(info));
      }
    }
    return result;
  }

  public int count(CountParams params) {
    var request = WireMapping.toThrift(params);
    return transport.call(
        "getJobCount", Retry.ALWAYS, requestTimeout, api -> api.getJobCount(context(), request));
  }

  public ScanPage scan(ScanParams params) {
    var request = WireMapping.toThrift(params);
    PinLaterScanJobsResponse response =
        transport.call(
            "scanJobs", Retry.ALWAYS, requestTimeout, api -> api.scanJobs(context(), request));
    return WireMapping.fromThrift(response);
  }

  /**
   * Moves FAILED jobs back to PENDING; needs the server's admin password ({@link
   * Builder#adminPassword}).
   */
  public int retryFailed(RetryFailedParams params) {
    var request = WireMapping.toThrift(params).setPassword(adminPassword);
    return transport.call(
        "retryFailedJobs",
        Retry.IF_NOT_SENT,
        requestTimeout,
        api -> api.retryFailedJobs(context(), request));
  }

  /** Deletes jobs; needs the server's admin password ({@link Builder#adminPassword}). */
  public int deleteJobs(DeleteJobsParams params) {
    var request = WireMapping.toThrift(params).setPassword(adminPassword);
    return transport.call(
        "deleteJobs", Retry.IF_NOT_SENT, requestTimeout, api -> api.deleteJobs(context(), request));
  }

  /**
   * Deletes one job in any state; false if it does not exist (a Flipper server call, not in
   * PinLater).
   */
  public boolean deleteJob(JobDescriptor job) {
    return transport.call(
        "deleteJob",
        Retry.IF_NOT_SENT,
        requestTimeout,
        api -> api.deleteJob(context(), job.toString()));
  }

  /**
   * Moves one FAILED job back to PENDING, runnable now, with {@code attemptsToAllow} attempts;
   * false if it does not exist or is not FAILED (a Flipper server call, not in PinLater).
   */
  public boolean retryJob(JobDescriptor job, int attemptsToAllow) {
    return transport.call(
        "retryJob",
        Retry.IF_NOT_SENT,
        requestTimeout,
        api -> api.retryJob(context(), job.toString(), attemptsToAllow));
  }

  /**
   * Pauses ({@code true}) or resumes dequeues of the queue on every server sharing the store (a
   * Flipper server call, not in PinLater); needs the server's admin password ({@link
   * Builder#adminPassword}).
   */
  public void setQueuePaused(String queue, boolean paused) {
    transport.call(
        "setQueuePaused",
        Retry.ALWAYS,
        requestTimeout,
        api -> {
          api.setQueuePaused(context(), queue, paused, adminPassword);
          return null;
        });
  }

  /** The paused queues (a Flipper server call, not in PinLater). */
  public Set<String> pausedQueues() {
    return Set.copyOf(
        transport.call(
            "getPausedQueues",
            Retry.ALWAYS,
            requestTimeout,
            api -> api.getPausedQueues(context())));
  }

  @Override
  public void close() {
    if (ownsTransport) {
      transport.close();
    }
  }

  private RequestContext context() {
    return new RequestContext(source);
  }

  /** Settings of a {@link QueueClient}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final List<ServerAddress> servers = new ArrayList<>();
    private Path serverSetFile;
    private Duration serverSetReloadInterval = Duration.ofSeconds(5);
    private String source;
    private Duration connectTimeout = Duration.ofSeconds(2);
    private Duration requestTimeout = Duration.ofSeconds(10);
    private Duration dequeueTimeout = Duration.ofSeconds(40);
    private int maxConnectionsPerServer = 8;
    private int maxAttempts = 3;
    private int maxFrameBytes = 100 * 1024 * 1024;
    private int coalescedCallsInFlight = 2;
    private String adminPassword;
    private TlsIdentity tls;

    private Builder() {}

    /**
     * The queue admin password (the one whose hash is the servers' {@code
     * queue.adminPasswordHash}), sent with {@link QueueClient#deleteJobs}, {@link
     * QueueClient#retryFailed} and {@link QueueClient#setQueuePaused}: servers refuse those without
     * it (PASSWORD_INVALID), as {@link QueueClient#deleteQueue}, which takes it as an argument.
     * Default none.
     */
    public Builder adminPassword(String password) {
      this.adminPassword = password;
      return this;
    }

    /** Adds a server; call again for several. */
    public Builder server(String host, int port) {
      servers.add(new ServerAddress(host, port));
      return this;
    }

    public Builder servers(List<ServerAddress> list) {
      servers.addAll(list);
      return this;
    }

    /** Reads the servers from a server-set file (one host:port per line), re-read every 5 s. */
    public Builder serverSetFile(Path file) {
      this.serverSetFile = file;
      return this;
    }

    public Builder serverSetReloadInterval(Duration interval) {
      this.serverSetReloadInterval = interval;
      return this;
    }

    /**
     * Names this client on the wire, for example {@code "mailer:host7"}; checkpoints must come from
     * the source that dequeued. Default {@code flipper-client:<hostname>}.
     */
    public Builder source(String name) {
      this.source = name;
      return this;
    }

    /** Time to open a TCP connection. Default 2 s, as PinLater's client. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    /**
     * Time to wait for an answer (and for a free pooled connection). Default 10 s, as PinLater's
     * client.
     */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = timeout;
      return this;
    }

    /** Time to wait for a dequeue answer; must exceed the server's long-poll time. Default 40 s. */
    public Builder dequeueTimeout(Duration timeout) {
      this.dequeueTimeout = timeout;
      return this;
    }

    /** Connections kept per server, i.e. calls in flight per server. Default 8. */
    public Builder maxConnectionsPerServer(int connections) {
      this.maxConnectionsPerServer = connections;
      return this;
    }

    /** Tries per call, on different servers when there are several. Default 3. */
    public Builder maxAttempts(int attempts) {
      this.maxAttempts = attempts;
      return this;
    }

    /**
     * Largest answer accepted. Default 100 MiB, the highest frame limit a Flipper queue server
     * takes: a server never answers above its own {@code maxFrameBytes} (a dequeue returns fewer
     * jobs instead), so the default reads every answer of any server and a dequeue never claims
     * jobs this client then cannot read.
     */
    public Builder maxFrameBytes(int bytes) {
      this.maxFrameBytes = bytes;
      return this;
    }

    /**
     * Single-job enqueues into one queue that threads make while this many such calls are under way
     * wait and go together in the next call, so many threads enqueueing one job each cost the
     * server, the store and the network a fraction of a call per job. A lone enqueue is sent at
     * once, as without it. 0 sends every enqueue as its own call. Default 2.
     */
    public Builder coalesceEnqueues(int callsInFlightPerQueue) {
      this.coalescedCallsInFlight = callsInFlightPerQueue;
      return this;
    }

    /**
     * Connect with mutual TLS as {@code identity}: the server must present a certificate of the
     * identity's authority naming the host dialled, and sees the role of this identity's
     * certificate (docs/security.md). Null (default): plain Thrift, for servers without TLS.
     */
    public Builder tls(TlsIdentity identity) {
      this.tls = identity;
      return this;
    }

    public QueueClient build() {
      if (servers.isEmpty() == (serverSetFile == null)) {
        throw new IllegalArgumentException(
            "queue client: give either servers (server(host, port)) or a "
                + "serverSetFile, not "
                + (servers.isEmpty() ? "neither" : "both"));
      }
      String effectiveSource = source != null ? source : "flipper-client:" + localHostName();
      requireSource(effectiveSource);
      requirePositive(connectTimeout, "connectTimeout");
      requirePositive(requestTimeout, "requestTimeout");
      requirePositive(dequeueTimeout, "dequeueTimeout");
      requirePositive(serverSetReloadInterval, "serverSetReloadInterval");
      require(
          maxConnectionsPerServer >= 1,
          "maxConnectionsPerServer must be >= 1, was " + maxConnectionsPerServer);
      require(
          maxAttempts >= 1 && maxAttempts <= 10, "maxAttempts must be 1..10, was " + maxAttempts);
      require(maxFrameBytes >= 1024, "maxFrameBytes must be >= 1024, was " + maxFrameBytes);
      require(
          coalescedCallsInFlight >= 0 && coalescedCallsInFlight <= 64,
          "coalesceEnqueues must be 0..64 calls in flight per queue, was "
              + coalescedCallsInFlight);
      Transport transport =
          serverSetFile != null
              ? Transport.serverSet(
                  serverSetFile,
                  serverSetReloadInterval,
                  maxConnectionsPerServer,
                  connectTimeout,
                  maxFrameBytes,
                  maxAttempts,
                  tls)
              : Transport.fixed(
                  servers,
                  maxConnectionsPerServer,
                  connectTimeout,
                  maxFrameBytes,
                  maxAttempts,
                  tls);
      return new QueueClient(
          transport,
          effectiveSource,
          requestTimeout,
          dequeueTimeout,
          adminPassword,
          true,
          coalescedCallsInFlight);
    }

    static void requireSource(String source) {
      require(
          source != null && !source.isBlank() && source.length() <= 200,
          "source must be 1..200 characters, was "
              + (source == null ? "null" : "'" + source + "'"));
    }

    private static void requirePositive(Duration value, String name) {
      Objects.requireNonNull(value, name);
      require(!value.isNegative() && !value.isZero(), name + " must be > 0, was " + value);
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException("queue client: " + message);
      }
    }

    static String localHostName() {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        return "unknown-host";
      }
    }
  }
}
