package dev.flipper.config;

/**
 * The whole validated configuration: one typed section per daemon plus the shared ones. Built only by
 * {@link ConfigLoader}. {@link #values()} prints it (secrets masked). Immutable and thread-safe.
 */
public record FlipperConfig(
    StorageConfig storage,
    QueueConfig queue,
    MasterConfig master,
    SchedulerConfig scheduler,
    WorkersConfig workers,
    UiConfig ui,
    EmailConfig email,
    LoggingConfig logging,
    ConfigValues values) {

  static FlipperConfig from(ConfigValues v) {
    return new FlipperConfig(
        StorageConfig.from(v),
        QueueConfig.from(v),
        MasterConfig.from(v),
        SchedulerConfig.from(v),
        WorkersConfig.from(v),
        UiConfig.from(v),
        EmailConfig.from(v),
        LoggingConfig.from(v),
        v);
  }

  @Override
  public String toString() {
    return "FlipperConfig[" + values.toOneLine(true) + "]";
  }
}
