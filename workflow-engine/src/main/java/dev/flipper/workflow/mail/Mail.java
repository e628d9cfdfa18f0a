package dev.flipper.workflow.mail;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * One message: recipients, subject, and the same content as plain text and as HTML (sent as
 * multipart/alternative). Immutable.
 */
public record Mail(List<String> to, String subject, String text, String html) {

  public Mail {
    to = List.copyOf(new LinkedHashSet<>(to)); // each recipient once, in the order first named
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(html, "html");
  }
}
