package dev.flipper.config;

import dev.flipper.queue.server.QueueDaemon;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.UiLinks;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.scheduler.SchedulerDaemon;
import dev.flipper.workflow.ui.UiAuth;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.worker.WorkerDaemon;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole validated configuration: one typed section per daemon plus the shared ones. Where a
 * module has its own settings type (the shards, the queue, the master, scheduler, workers and UI),
 * the section is bound straight into it by {@link RecordBinder}. Built only by {@link
 * ConfigLoader}. {@link #values()} prints it (secrets masked). Immutable and thread-safe.
 *
 * @param uiQueueServers the queue dashboard's servers ({@code ui.queueServers}, {@code
 *     ui.queueServerSetFile})
 * @param uiLinks addresses of UI pages for links in e-mail ({@code ui.baseUrl})
 * @param admin where each daemon's admin server listens, by section name ({@code queue}, {@code
 *     master}, ...)
 * @param email the {@code email} section, bound straight into the mailer's settings
 */
public record FlipperConfig(
    StorageConfig storage,
    NetworkConfig network,
    SecurityConfig security,
    QueueDaemon.Config queue,
    MasterDaemon.Config master,
    MasterStoreConfig masterStore,
    SchedulerDaemon.Config scheduler,
    WorkerDaemon.Config workers,
    UiDaemon.Config ui,
    QueueServers uiQueueServers,
    UiAuth uiAuth,
    UiLinks uiLinks,
    Map<String, AdminConfig> admin,
    MailSettings email,
    LoggingConfig logging,
    ConfigValues values) {

  /** The sections of the daemons, each with its own admin port. */
  static final List<String> DAEMON_SECTIONS =
      List.of("queue", "master", "scheduler", "workers", "ui");

  public FlipperConfig {
    admin = Map.copyOf(admin);
  }

  static FlipperConfig from(ConfigValues v) {
    Map<String, AdminConfig> admin = new LinkedHashMap<>();
    for (String section : DAEMON_SECTIONS) {
      admin.put(section, RecordBinder.bind(v, section, AdminConfig.class));
    }
    return new FlipperConfig(
        RecordBinder.bind(v, "storage", StorageConfig.class),
        RecordBinder.bind(v, "network", NetworkConfig.class),
        RecordBinder.bind(v, "security", SecurityConfig.class),
        RecordBinder.bind(v, "queue", QueueDaemon.Config.class),
        RecordBinder.bind(v, "master", MasterDaemon.Config.class),
        RecordBinder.bind(v, "master", MasterStoreConfig.class),
        RecordBinder.bind(v, "scheduler", SchedulerDaemon.Config.class),
        RecordBinder.bind(v, "workers", WorkerDaemon.Config.class),
        RecordBinder.bind(v, "ui", UiDaemon.Config.class),
        RecordBinder.bind(v, "ui", QueueServers.class),
        RecordBinder.bind(v, "ui", UiAuth.class),
        RecordBinder.bind(v, "ui", UiLinks.class),
        admin,
        RecordBinder.bind(v, "email", MailSettings.class),
        RecordBinder.bind(v, "logging", LoggingConfig.class),
        v);
  }

  /** Where the admin server of the daemon configured in {@code section} listens. */
  public AdminConfig admin(String section) {
    AdminConfig config = admin.get(section);
    if (config == null) {
      throw new IllegalArgumentException(
          "no daemon section '" + section + "'; sections: " + DAEMON_SECTIONS);
    }
    return config;
  }

  @Override
  public String toString() {
    return "FlipperConfig[" + values.toOneLine(true) + "]";
  }
}
