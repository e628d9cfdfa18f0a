package dev.flipper.config;

/** The {@code workers} section. Immutable. */
public record WorkersConfig(int adminPort, int count) {

  static WorkersConfig from(ConfigValues v) {
    return new WorkersConfig(v.integer("workers.adminPort"), v.integer("workers.count"));
  }
}
