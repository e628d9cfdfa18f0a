package dev.flipper.config;

/** The {@code scheduler} section. Immutable. */
public record SchedulerConfig(int adminPort) {

  static SchedulerConfig from(ConfigValues v) {
    return new SchedulerConfig(v.integer("scheduler.adminPort"));
  }
}
