package dev.flipper.config;

import java.util.List;

/** The {@code email} section. Immutable. */
public record EmailConfig(boolean enabled, String smtpHost, int smtpPort, String from, List<String> to) {

  static EmailConfig from(ConfigValues v) {
    return new EmailConfig(v.bool("email.enabled"), v.text("email.smtpHost"), v.integer("email.smtpPort"),
        v.text("email.from"), v.texts("email.to"));
  }
}
