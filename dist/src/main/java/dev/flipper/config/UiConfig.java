package dev.flipper.config;

/** The {@code ui} section. Immutable. */
public record UiConfig(int port, int adminPort) {

  static UiConfig from(ConfigValues v) {
    return new UiConfig(v.integer("ui.port"), v.integer("ui.adminPort"));
  }
}
