package dev.flipper.config;

import dev.flipper.config.DefaultYaml.Literal;
import dev.flipper.config.SettingType.BoolType;
import dev.flipper.config.SettingType.DurationType;
import dev.flipper.config.SettingType.EnumType;
import dev.flipper.config.SettingType.IntType;
import dev.flipper.config.SettingType.ObjectListType;
import dev.flipper.config.SettingType.SizeType;
import dev.flipper.config.SettingType.TextListType;
import dev.flipper.config.SettingType.TextType;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.redis.RedisShardConfig;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.UiLinks;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.scheduler.SchedulerDaemon;
import dev.flipper.workflow.ui.UiAuth;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.worker.WorkerDaemon;
import dev.flipper.yaml.Problems;
import dev.flipper.yaml.RawNode;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every configuration key of every daemon, in one place: path, type, range, default and meaning.
 * The loader, the "did you mean" suggestions, {@code --set}, the printed configuration and the test
 * that checks docs/configuration.md all read this list. Immutable.
 *
 * <p>A default that a module also has (a builder's, or a settings type's {@code defaults()}) is
 * taken from the module's constant, never written again here; only the launcher's own defaults (the
 * ports of the admin servers, the shared bind address, the default shards, logging, ...) are
 * written here. DefaultsAgreementTest builds each module's settings with nothing set and fails,
 * naming the key, when one disagrees with what this schema binds from an empty file.
 */
public final class ConfigSchema {

  /** A top-level section of the file. */
  public record Section(String name, String meaning) {}

  public static final List<Section> SECTIONS =
      List.of(
          new Section("storage", "Where jobs and workflow state live: shared by every daemon."),
          new Section("network", "Where the daemons listen: the address shared by every daemon."),
          new Section(
              "security",
              "Mutual TLS on every port and the certificate each daemon and command presents."),
          new Section("queue", "The queue server (mode queue)."),
          new Section("master", "The workflow token master (mode master)."),
          new Section("scheduler", "The workflow scheduler (mode scheduler)."),
          new Section("workers", "The workflow workers (mode workers)."),
          new Section("ui", "The web UI (mode ui)."),
          new Section("email", "Notification e-mail, shared by every daemon that sends mail."),
          new Section("logging", "Logging, shared by every daemon."));

  private static final int MAX_PORT = 65_535;
  private static final String SHARED_BIND_ADDRESS = "network.bindAddress";
  private static final String ADDRESS = "[0-9A-Za-z.:%_-]+";
  private static final String ADDRESS_RULE = "an IP address or host name";
  private static final String SHARD_NAME = "[A-Za-z0-9_]{1,32}";
  private static final String SHARD_NAME_RULE = "1-32 letters, digits or _";

  // The modules' defaults, which the settings below take theirs from (so each is written once).
  private static final JdbcShardConfig JDBC_SHARD = JdbcShardConfig.of("1", "jdbc:h2:mem:defaults");
  private static final RedisShardConfig REDIS_SHARD = RedisShardConfig.of("1", "127.0.0.1");
  private static final MasterDaemon.Config MASTER = MasterDaemon.Config.defaults();
  private static final SchedulerDaemon.Config SCHEDULER = SchedulerDaemon.Config.defaults();
  private static final WorkerDaemon.Config WORKERS = WorkerDaemon.Config.defaults();
  private static final UiDaemon.Config UI = UiDaemon.Config.defaults();
  private static final MailSettings EMAIL = MailSettings.disabled();

  private static final Setting JDBC_SHARDS =
      setting(
          "storage.jdbc.shards",
          new ObjectListType(
              "jdbc shard",
              List.of(
                  required(
                      "name",
                      TextType.matching(false, SHARD_NAME, SHARD_NAME_RULE),
                      "Shard name; part of every job id (mail:s1:p1:42), so never rename a shard with jobs."),
                  required(
                      "url",
                      TextType.matching(
                          false, "(?i)jdbc:(mysql|h2):.+", "a jdbc:mysql: or jdbc:h2: URL"),
                      "JDBC URL: jdbc:mysql://host:3306/db (MySQL 8 and MariaDB 10.6+) or "
                          + "jdbc:h2:file:...;MODE=MySQL (embedded)."),
                  setting("user", TextType.any(), JDBC_SHARD.user(), "Database user."),
                  setting(
                      "password",
                      TextType.anySecret(),
                      JDBC_SHARD.password(),
                      "Database password; masked when printed."),
                  setting(
                      "dequeueOnly",
                      new BoolType(),
                      JDBC_SHARD.dequeueOnly(),
                      "true = no new jobs go here; existing jobs are still dequeued (for draining a shard).")),
              "name"),
          new Literal(
              "[{name: \"1\", url: \"jdbc:h2:file:./data/flipper;MODE=MySQL;AUTO_SERVER=TRUE\"}]"),
          "The JDBC shards; the default is one embedded H2 database under ./data.");

  private static final Setting REDIS_SHARDS =
      setting(
          "storage.redis.shards",
          new ObjectListType(
              "redis shard",
              List.of(
                  required(
                      "name",
                      TextType.matching(false, SHARD_NAME, SHARD_NAME_RULE),
                      "Shard name; part of every job id, so never rename a shard with jobs."),
                  required("host", TextType.any(), "Redis host name or address."),
                  setting("port", new IntType(1, MAX_PORT), REDIS_SHARD.port(), "Redis port."),
                  setting(
                      "database",
                      new IntType(0, 1_000),
                      REDIS_SHARD.database(),
                      "Redis database number."),
                  setting(
                      "password",
                      TextType.anySecret(),
                      REDIS_SHARD.password(),
                      "Redis password (AUTH); \"\" = none."),
                  setting(
                      "dequeueOnly",
                      new BoolType(),
                      REDIS_SHARD.dequeueOnly(),
                      "true = no new jobs go here; existing jobs are still dequeued.")),
              "name"),
          new Literal("[{name: \"1\", host: 127.0.0.1}]"),
          "The Redis shards, used when storage.backend is redis.");

  public static final List<Setting> SETTINGS =
      List.of(
          setting(
              "storage.backend",
              new EnumType(List.of("jdbc", "redis")),
              "jdbc",
              "jdbc = MariaDB/MySQL or embedded H2 (storage.jdbc); redis = Redis (storage.redis)."),
          JDBC_SHARDS,
          setting(
              "storage.jdbc.poolSize",
              new IntType(2, 1_000),
              JdbcQueueStore.DEFAULT_POOL_SIZE,
              "Most connections per shard, per daemon (one is held during schema migrations)."),
          REDIS_SHARDS,
          setting(
              "storage.redis.keyPrefix",
              TextType.any(),
              RedisQueueStore.DEFAULT_KEY_PREFIX,
              "Prefix of every Redis key, used as is, so several installations can share one Redis."),
          setting(
              "network.bindAddress",
              TextType.matching(false, ADDRESS, ADDRESS_RULE),
              "127.0.0.1",
              "Address every daemon listens on (service and admin ports) unless its section sets bindAddress: "
                  + "127.0.0.1 = this machine only, 0.0.0.0 = every IPv4 interface, :: = every interface."),
          setting(
              "security.tls",
              new BoolType(),
              SecurityConfig.OFF.tls(),
              "true = every port (Thrift, admin, logs) speaks mutual TLS: peers present a certificate of "
                  + "security.certificates' authority, whose role decides what they may do (docs/security.md)."),
          setting(
              "security.certificates",
              TextType.any(),
              SecurityConfig.OFF.certificates(),
              "Folder with ca.pem and <name>.pem/<name>.key, made by `flipper tls init`; each daemon "
                  + "presents the certificate named as its mode (master, queue, workers, scheduler, ui)."),
          setting(
              "security.identity",
              TextType.matching(
                  false, "|[A-Za-z0-9_.-]+", "empty or a certificate name: letters, digits, _ . -"),
              SecurityConfig.OFF.identity(),
              "Certificate that commands (flipper workflow, queue-tool) present; \"\" = operator."),
          setting(
              "security.insecure",
              new BoolType(),
              SecurityConfig.OFF.insecure(),
              "true = daemons may listen on a non-loopback address without TLS (a trusted network); "
                  + "false = they refuse to start so."),
          bindAddress("queue", "the queue server"),
          port("queue.port", QueueServer.DEFAULT_PORT, "Thrift port of the queue server."),
          port(
              "queue.adminPort",
              9999,
              "Admin HTTP port of the queue server (/health, /metrics, /stats.txt)."),
          setting(
              "queue.priorityLevels",
              new IntType(1, 100),
              QueueService.DEFAULT_PRIORITY_LEVELS,
              "Number of priorities; 1 is the highest. Must match every client."),
          setting(
              "queue.maxBodyBytes",
              new IntType(1, Integer.MAX_VALUE),
              QueueService.DEFAULT_MAX_BODY_BYTES,
              "Largest job body accepted; larger enqueues are rejected. Below queue.maxFrameBytes."),
          setting(
              "queue.maxFrameBytes",
              new IntType(1_024, Integer.MAX_VALUE),
              QueueServer.DEFAULT_MAX_FRAME_BYTES,
              "Largest Thrift request or response frame."),
          setting(
              "queue.claimTimeout",
              new DurationType(Duration.ofSeconds(1)),
              QueueMonitor.DEFAULT_CLAIM_TIMEOUT,
              "A claimed job not acked within this time goes back to pending (or fails if out of attempts)."),
          setting(
              "queue.succeededTtl",
              new DurationType(Duration.ofSeconds(1)),
              QueueMonitor.DEFAULT_SUCCEEDED_TTL,
              "Succeeded jobs are deleted this long after they finished."),
          setting(
              "queue.failedTtl",
              new DurationType(Duration.ofSeconds(1)),
              QueueMonitor.DEFAULT_FAILED_TTL,
              "Failed jobs are deleted this long after they failed."),
          setting(
              "queue.monitorInterval",
              new DurationType(Duration.ofSeconds(1)),
              QueueMonitor.DEFAULT_INTERVAL,
              "How often the monitor looks for timed-out claims and expired jobs."),
          setting(
              "queue.monitorBatchSize",
              new IntType(1, 1_000_000),
              QueueMonitor.DEFAULT_BATCH_SIZE,
              "Most jobs the monitor changes per shard and step (time-outs, each GC) in one run."),
          setting(
              "queue.rateLimitFile",
              TextType.any(),
              "",
              "File with per-queue dequeue rate limits, reloaded on change; \"\" = no limits."),
          setting(
              "queue.serverSetFile",
              TextType.any(),
              "",
              "File listing the queue servers (one host:port a line), to split rate limits; \"\" = this server only."),
          setting(
              "queue.adminPasswordHash",
              TextType.matching(true, "|[0-9a-fA-F]{64}", "empty or 64 hex digits"),
              "",
              "SHA-256 of the admin password that deleteQueue, deleteJobs, retryFailedJobs and setQueuePaused "
                  + "require (flipper hash-password); \"\" = deleting is refused, retry and pause are open."),
          setting(
              "queue.longPollTimeout",
              new DurationType(Duration.ZERO),
              QueueServer.DEFAULT_LONG_POLL_TIMEOUT,
              "Longest time an empty dequeue that asks for no wait (PinLater's clients) waits for a job; 0s = answer"
                  + " at once. Flipper's clients ask for their own wait in the request."),
          setting(
              "queue.directCallLimitMicros",
              new IntType(0, 10_000),
              QueueServer.DEFAULT_DIRECT_CALL_LIMIT.toNanos() / 1_000,
              "Enqueue, dequeue, ack, checkpoint and lookup calls run on the network thread that read them while the "
                  + "store answers them within this many microseconds on average (Redis, in-memory), else on a worker "
                  + "thread; 0 = always on a worker thread."),
          setting(
              "queue.idleTimeout",
              new DurationType(Duration.ofSeconds(1)),
              QueueServer.DEFAULT_IDLE_TIMEOUT,
              "A queue connection that moves no bytes for this long (idle, or stuck in a frame) is closed; clients "
                  + "reconnect. Longer than queue.longPollTimeout."),
          setting(
              "queue.frameReadTimeout",
              new DurationType(Duration.ofSeconds(1)),
              QueueServer.DEFAULT_FRAME_READ_TIMEOUT,
              "Longest time to read one request frame, first byte to last; a connection still reading one then is "
                  + "closed (a peer trickling bytes cannot hold a frame and its memory)."),
          setting(
              "queue.bodyFilterStepsPerBody",
              new IntType(1_000, Integer.MAX_VALUE),
              BodyFilter.STEPS_PER_BODY,
              "Characters one body-filter search may read in one job body (a backtracking regex stops there); the "
                  + "call fails naming the budget."),
          setting(
              "queue.bodyFilterTimePerCall",
              new DurationType(Duration.ofMillis(100)),
              BodyFilter.TIME_PER_CALL,
              "Time a body-filtered count, scan or deleteJobs may spend evaluating its filter, all bodies together; "
                  + "the call fails naming the budget."),
          setting(
              "queue.maxConnections",
              new IntType(1, 1_000_000),
              QueueServer.DEFAULT_MAX_CONNECTIONS,
              "Most connections the queue server holds; a new one beyond closes the longest-idle connection (it is "
                  + "refused only when all are in a call)."),
          setting(
              "queue.maxConnectionsPerPeer",
              new IntType(1, 1_000_000),
              QueueServer.DEFAULT_MAX_CONNECTIONS_PER_PEER,
              "Most queue connections from one address (loopback too); a new one beyond closes that address's "
                  + "longest-idle connection."),
          setting(
              "queue.maxConcurrentBodyFilters",
              new IntType(1, 10_000),
              QueueServer.DEFAULT_MAX_CONCURRENT_BODY_FILTERS,
              "Most body-filtered count, scan or deleteJobs calls at once; one more is refused at once, nothing "
                  + "done, so regex searches cannot take every worker thread."),
          bindAddress("master", "the master"),
          port("master.port", MASTER.port(), "Port of the token master API."),
          port("master.adminPort", 9091, "Admin HTTP port of the master."),
          setting(
              "master.idleTimeout",
              new DurationType(Duration.ofSeconds(1)),
              MASTER.idleTimeout(),
              "A master connection that sends nothing for this long is closed; clients reconnect. Keep it above "
                  + "the longest claim wait (30s)."),
          setting(
              "master.messageReadTimeout",
              new DurationType(Duration.ofSeconds(1)),
              MASTER.messageReadTimeout(),
              "Longest time to read one request, first byte to last; a connection still reading one then is closed "
                  + "(a peer trickling bytes cannot hold a connection thread)."),
          setting(
              "master.maxConnections",
              new IntType(1, 100_000),
              MASTER.maxConnections(),
              "Most connections the master holds, one thread each; a new one beyond closes the longest-idle "
                  + "connection (it is refused only when all are in a call)."),
          setting(
              "master.maxConnectionsPerPeer",
              new IntType(1, 100_000),
              MASTER.maxConnectionsPerPeer(),
              "Most master connections from one address (loopback too); a new one beyond closes that address's "
                  + "longest-idle connection."),
          setting(
              "master.jdbcUrl",
              TextType.matching(
                  false, "|(?i)jdbc:(mysql|h2):.+", "empty or a jdbc:mysql: or jdbc:h2: URL"),
              "",
              "Database of the workflow tokens; \"\" = the database of the first storage.jdbc shard."),
          setting("master.jdbcUser", TextType.any(), "", "Database user for master.jdbcUrl."),
          setting(
              "master.jdbcPassword",
              TextType.anySecret(),
              "",
              "Database password for master.jdbcUrl; masked when printed."),
          bindAddress("scheduler", "the scheduler"),
          port("scheduler.adminPort", 9092, "Admin HTTP port of the scheduler."),
          setting(
              "scheduler.masterHost",
              TextType.any(),
              SCHEDULER.masterHost(),
              "Host of the token master whose schedules the scheduler fires; its port is master.port."),
          setting(
              "scheduler.count",
              new IntType(1, 100),
              SCHEDULER.count(),
              "Scheduler loops in one process, each claiming due schedules on its own; more help when one loop's "
                  + "starts fall behind. Any number of scheduler processes may run too: a slot never fires twice."),
          setting(
              "scheduler.claimLease",
              new DurationType(Duration.ofSeconds(1)),
              SCHEDULER.claimLease(),
              "How long a claimed schedule stays one scheduler's while it fires it (whole seconds); a scheduler "
                  + "that dies holding one leaves it to the others after this."),
          setting(
              "scheduler.batchSize",
              new IntType(1, 1_000),
              SCHEDULER.batchSize(),
              "Most due schedules claimed per call; their instances start in one atomic change."),
          setting(
              "scheduler.recheck",
              new DurationType(Duration.ofSeconds(1)),
              SCHEDULER.recheck(),
              "How soon a slot that waits (overrun DELAY, DELAY_UNTIL_SUCCESS, too many instances) is looked at "
                  + "again."),
          setting(
              "scheduler.maxWait",
              new DurationType(Duration.ofMillis(100)),
              SCHEDULER.maxWait(),
              "Longest time one claim waits in the master for a schedule to fall due or be applied (an apply "
                  + "ends the wait at once); also bounds how long a stopping scheduler takes."),
          bindAddress("workers", "the workers"),
          port("workers.adminPort", 9093, "Admin HTTP port of the workers."),
          setting(
              "workers.count",
              new IntType(1, 1_000),
              WORKERS.count(),
              "Jobs run at the same time by one workers process."),
          setting(
              "workers.masterHost",
              TextType.any(),
              WORKERS.masterHost(),
              "Host of the token master the workers claim jobs from; its port is master.port."),
          setting(
              "workers.lease",
              new DurationType(Duration.ofSeconds(1)),
              WORKERS.lease(),
              "How long a claimed job stays owned without renewal (renewed every lease/3, whole seconds). A worker "
                  + "that cannot renew kills the job; a dead worker's job is reclaimed after this."),
          setting(
              "workers.shutdownGrace",
              new DurationType(Duration.ZERO),
              WORKERS.shutdownGrace(),
              "On stop, how long running jobs may still take; then they are killed and handed back to the master. "
                  + "Keep it well under the launcher's 60s stop deadline."),
          setting(
              "workers.archiveDelay",
              new DurationType(Duration.ZERO),
              WORKERS.archiveDelay(),
              "How long a finished workflow instance stays visible before the workers archive it."),
          setting(
              "workers.logDir",
              TextType.any(),
              WORKERS.logDir(),
              "Where job logs are written (<workflow>/<instance>/<job>.<attempt>.stdout and .stderr) and served "
                  + "from."),
          setting(
              "workers.workDir",
              TextType.any(),
              WORKERS.workDir(),
              "Working directory of every job; \"\" = one per instance, work/<workflow>/<instance> beside logDir."),
          setting(
              "workers.advertisedHost",
              TextType.any(),
              WORKERS.advertisedHost(),
              "Host name in the log URLs of execution records; \"\" = workers.bindAddress unless it is a wildcard "
                  + "(0.0.0.0, ::), else this machine's host name."),
          setting(
              "workers.generation",
              new IntType(1, 1_000_000),
              WORKERS.generation(),
              "Generation of these workers (upgrades): flipper workflow exit --generation N makes workers of an "
                  + "older generation finish their jobs and exit."),
          setting(
              "workers.heartbeatInterval",
              new DurationType(Duration.ofMillis(100)),
              WORKERS.heartbeatInterval(),
              "How often each workers process publishes its heartbeat (flipper workflow workers); it counts as "
                  + "dead after 3 intervals without one."),
          setting(
              "workers.maxLogBytes",
              new SizeType(),
              WORKERS.maxLogBytes(),
              "Most bytes kept of each log (stdout, stderr) of one job execution: beyond it the first and last "
                  + "halves are kept with a '--- flipper: N bytes cut here ---' line between them; 0 = all. "
                  + "Otherwise at least 1KiB."),
          setting(
              "workers.maxLogFolderBytes",
              new SizeType(),
              WORKERS.maxLogFolderBytes(),
              "No job starts (it is handed back for another worker or later) while workers.logDir holds this "
                  + "much or more, summed at most once a minute; 0 = no cap."),
          setting(
              "workers.minFreeDiskBytes",
              new SizeType(),
              WORKERS.minFreeDiskBytes(),
              "No job starts (it is handed back for another worker or later) while the disk of "
                  + "workers.logDir has less free space; 0 = no check."),
          bindAddress("ui", "the UI"),
          port("ui.port", UI.port(), "Port of the web UI."),
          setting(
              "ui.masterHost",
              TextType.any(),
              UI.masterHost(),
              "Host of the token master the UI reads workflows from; its port is master.port."),
          port("ui.adminPort", 9094, "Admin HTTP port of the UI."),
          setting(
              "ui.baseUrl",
              TextType.matching(false, "|https?://\\S+", "empty or an http:// or https:// URL"),
              UiLinks.NONE.baseUrl(),
              "Address of the UI as users reach it (https://flipper.example.com), for links in e-mail; its "
                  + "host is one the UI answers (ui.allowedHosts); \"\" = links are paths without a host."),
          setting(
              "ui.users",
              new ObjectListType(
                  "ui user",
                  List.of(
                      required(
                          "name", TextType.matching(false, "\\S+", "no spaces"), "Sign-in name."),
                      required(
                          "passwordHash",
                          TextType.matching(
                              true,
                              "\\$2[aby]\\$\\d\\d\\$.{53}",
                              "a BCrypt hash from flipper hash-password --bcrypt"),
                          "BCrypt hash of the password."),
                      setting(
                          "role",
                          TextType.matching(false, "viewer|operator", "viewer or operator"),
                          UiAuth.User.DEFAULT_ROLE,
                          "viewer reads; operator also runs actions.")),
                  "name",
                  true),
              UiAuth.NONE.users(),
              "Who may sign in to the UI; [] and no trustedUserHeader = no sign-in (loopback only, or "
                  + "ui.allowAnonymous)."),
          setting(
              "ui.trustedUserHeader",
              TextType.any(),
              UiAuth.NONE.trustedUserHeader(),
              "Header naming the user, set by an authenticating proxy (e.g. X-Remote-User); honoured only from "
                  + "ui.trustedProxies; the role is that of the ui.users entry of that name, else viewer."),
          setting(
              "ui.trustedProxies",
              new TextListType(),
              UiAuth.NONE.trustedProxies(),
              "Addresses of the proxies whose ui.trustedUserHeader, X-Forwarded-Proto (Secure cookies) and "
                  + "X-Forwarded-For (sign-in limits per address) are believed."),
          setting(
              "ui.allowedHosts",
              new TextListType(),
              UiAuth.NONE.allowedHosts(),
              "More Host header values the UI answers (name = any port, name:port = that port), besides "
                  + "ui.baseUrl's host and, on its own port, the bind address and (bound on loopback or a "
                  + "wildcard) localhost, 127.0.0.1 and [::1]; any other Host is answered 421 (DNS "
                  + "rebinding)."),
          setting(
              "ui.allowAnonymous",
              new BoolType(),
              UiAuth.NONE.allowAnonymous(),
              "true = serve a non-loopback ui.bindAddress without sign-in, everyone an operator; false = refuse "
                  + "to start so."),
          setting(
              "ui.queueServers",
              new TextListType(),
              QueueServers.NONE.queueServers(),
              "Queue servers (host:port) of one cluster for the queue dashboard; [] and no queueServerSetFile = "
                  + "the queue server of the same process (flipper -m queue,ui, the demo), else no dashboard."),
          setting(
              "ui.queueServerSetFile",
              TextType.any(),
              QueueServers.NONE.queueServerSetFile(),
              "PinLater server-set file (one host:port a line, re-read every 5 s) naming the dashboard's queue "
                  + "servers, instead of ui.queueServers; \"\" = none."),
          setting(
              "ui.queueAdminPassword",
              TextType.anySecret(),
              QueueServers.NONE.queueAdminPassword(),
              "Queue admin password (whose hash is queue.adminPasswordHash) the dashboard sends with pause, "
                  + "resume, retry and delete; \"\" = none (deleting is refused; retry and pause work while the queue "
                  + "servers set no password). Masked when printed."),
          setting(
              "email.enabled",
              new BoolType(),
              EMAIL.enabled(),
              "Send notification e-mail; true requires email.smtpHost and email.from."),
          setting("email.smtpHost", TextType.any(), EMAIL.smtpHost(), "SMTP server host."),
          setting(
              "email.smtpPort",
              new IntType(1, MAX_PORT),
              EMAIL.smtpPort(),
              "SMTP server port: usually 25 (NONE), 587 (STARTTLS) or 465 (TLS)."),
          setting(
              "email.user", TextType.any(), EMAIL.user(), "SMTP login; \"\" = no authentication."),
          setting(
              "email.password",
              TextType.anySecret(),
              EMAIL.password(),
              "SMTP password for email.user; masked when printed."),
          setting(
              "email.security",
              new EnumType(List.of("NONE", "STARTTLS", "TLS")),
              EMAIL.security(),
              "NONE = plain SMTP; STARTTLS = upgrade the plain connection, refuse to send without it; "
                  + "TLS = TLS from the first byte (SMTPS). The server's certificate and host name are checked."),
          setting(
              "email.allowPlainTextPassword",
              new BoolType(),
              EMAIL.allowPlainTextPassword(),
              "Allow email.password over a plain connection (email.security NONE); false = such a config is "
                  + "refused. config-check warns while it is true and used."),
          setting("email.from", TextType.any(), EMAIL.from(), "Sender address."),
          setting(
              "email.to",
              new TextListType(),
              EMAIL.to(),
              "Addresses added to every message (operators), besides the workflow's and the job's emails."),
          setting(
              "email.attempts",
              new IntType(1, 100),
              EMAIL.attempts(),
              "How many times one message is tried before it is logged and dropped."),
          setting(
              "email.retryDelay",
              new DurationType(Duration.ZERO),
              EMAIL.retryDelay(),
              "Wait before the second attempt of a message; it doubles for each further attempt."),
          setting(
              "email.timeout",
              new DurationType(Duration.ofMillis(1)),
              EMAIL.timeout(),
              "Connect, read and write time-out of one attempt."),
          setting(
              "logging.level",
              new EnumType(List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR")),
              "INFO",
              "Level of Flipper's own loggers; DEBUG also prints every stack trace."),
          setting(
              "logging.file",
              TextType.any(),
              "",
              "Log file; {mode} is replaced by the daemon's mode(s). \"\" = console only."));

  private ConfigSchema() {}

  /** The top-level setting with this key. */
  public static Optional<Setting> find(String key) {
    return SETTINGS.stream().filter(s -> s.key().equals(key)).findFirst();
  }

  /** Section and sub-section paths, e.g. {@code storage} and {@code storage.jdbc}. */
  static Set<String> groups() {
    Set<String> groups = new LinkedHashSet<>();
    for (Setting s : SETTINGS) {
      String key = s.key();
      for (int dot = key.indexOf('.'); dot >= 0; dot = key.indexOf('.', dot + 1)) {
        groups.add(key.substring(0, dot));
      }
    }
    return groups;
  }

  /** The names directly under a group ("" = the sections), in schema order. */
  static List<String> children(String group) {
    String prefix = group.isEmpty() ? "" : group + ".";
    Set<String> names = new LinkedHashSet<>();
    for (Setting s : SETTINGS) {
      if (s.key().startsWith(prefix)) {
        String rest = s.key().substring(prefix.length());
        int dot = rest.indexOf('.');
        names.add(dot < 0 ? rest : rest.substring(0, dot));
      }
    }
    return List.copyOf(names);
  }

  /** Every key path, for suggestions. */
  static List<String> keys() {
    return SETTINGS.stream().map(Setting::key).toList();
  }

  /**
   * Rules between keys, checked after each key is valid on its own. Each problem is reported where
   * the key that breaks the rule was written.
   */
  static void checkTogether(ConfigValues values, Problems problems) {
    int body = values.integer("queue.maxBodyBytes");
    int frame = values.integer("queue.maxFrameBytes");
    if (body >= frame) {
      ConfigValues.Value bodyValue = values.value("queue.maxBodyBytes");
      RawNode.Where where =
          bodyValue.isDefault() ? values.value("queue.maxFrameBytes").where() : bodyValue.where();
      problems.add(
          where,
          "'queue.maxBodyBytes' ("
              + body
              + ") must be less than 'queue.maxFrameBytes' ("
              + frame
              + ")");
    }
    checkPortsDiffer(values, problems);
    if (values.bool("security.tls") && values.text("security.certificates").isBlank()) {
      problems.add(
          values.value("security.tls").where(),
          "'security.tls' is true, so 'security.certificates' must name the folder of certificates "
              + "(make one with `flipper tls init --dir DIR`)");
    }
    if (values.bool("email.enabled")) {
      List<String> missing = new java.util.ArrayList<>();
      for (String key : List.of("email.smtpHost", "email.from")) {
        if (values.text(key).isBlank()) {
          missing.add("'" + key + "'");
        }
      }
      if (!missing.isEmpty()) {
        problems.add(
            values.value("email.enabled").where(),
            "'email.enabled' is true, so " + String.join(", ", missing) + " must be set too");
      }
      if (values.text("email.security").equals("NONE")
          && !values.text("email.password").isEmpty()
          && !values.bool("email.allowPlainTextPassword")) {
        problems.add(
            values.value("email.password").where(),
            "'email.password' is set but 'email.security' is NONE, so the SMTP password would go over "
                + "the network in clear: set 'email.security' to STARTTLS or TLS, or "
                + "'email.allowPlainTextPassword' to true to accept that");
      }
    }
  }

  /**
   * One config describes one installation, whose daemons may share a host: two ports with the same
   * number would make the second daemon (or its admin server) fail at start, so say it now. 0 (any
   * free port) never clashes.
   */
  private static void checkPortsDiffer(ConfigValues values, Problems problems) {
    java.util.Map<Integer, String> firstKeyOfPort = new java.util.HashMap<>();
    for (String key : LISTEN_PORTS) {
      int port = values.integer(key);
      String other = port == 0 ? null : firstKeyOfPort.putIfAbsent(port, key);
      if (other != null) {
        ConfigValues.Value value = values.value(key);
        RawNode.Where where = value.isDefault() ? values.value(other).where() : value.where();
        problems.add(
            where,
            "'"
                + key
                + "' and '"
                + other
                + "' are both "
                + port
                + "; every port of the config must differ (0 = any free port)");
      }
    }
  }

  /**
   * Where an empty value takes its value from: each daemon's bindAddress defaults to the shared
   * network.bindAddress, so one key moves every daemon and one section can still differ.
   */
  static Optional<String> fallback(String key) {
    return key.endsWith(".bindAddress") && !key.equals(SHARED_BIND_ADDRESS)
        ? Optional.of(SHARED_BIND_ADDRESS)
        : Optional.empty();
  }

  private static Setting bindAddress(String section, String daemon) {
    return setting(
        section + ".bindAddress",
        TextType.matching(false, "|" + ADDRESS, "empty or " + ADDRESS_RULE),
        "",
        "Address the ports of " + daemon + " listen on; \"\" = network.bindAddress.");
  }

  /** The ports daemons listen on, in schema order (the port() settings). */
  private static final List<String> LISTEN_PORTS =
      List.of(
          "queue.port",
          "queue.adminPort",
          "master.port",
          "master.adminPort",
          "scheduler.adminPort",
          "workers.adminPort",
          "ui.port",
          "ui.adminPort");

  private static Setting port(String key, int defaultPort, String meaning) {
    return setting(key, new IntType(0, MAX_PORT), defaultPort, meaning + " 0 = any free port.");
  }

  /**
   * @param defaultValue the default as a Java value (a module's constant where the module has one:
   *     Integer, Long, Boolean, String, Duration, an enum, a List of those) or a {@link Literal};
   *     written as YAML by {@link DefaultYaml} and parsed back by the loader like a user's value
   */
  private static Setting setting(
      String key, SettingType type, Object defaultValue, String meaning) {
    return new Setting(key, type, Optional.of(DefaultYaml.of(defaultValue)), meaning);
  }

  private static Setting required(String key, SettingType type, String meaning) {
    return new Setting(key, type, Optional.empty(), meaning);
  }
}
