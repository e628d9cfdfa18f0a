package dev.flipper.config;

/** The {@code master} section. Immutable. */
public record MasterConfig(int port, int adminPort) {

  static MasterConfig from(ConfigValues v) {
    return new MasterConfig(v.integer("master.port"), v.integer("master.adminPort"));
  }
}
