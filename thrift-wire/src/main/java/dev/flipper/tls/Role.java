package dev.flipper.tls;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the holder of a certificate may do, written as the {@code OU} of the certificate's subject
 * (in lower case, e.g. {@code OU=worker}). Servers decide by role; docs/security.md lists what each
 * may do.
 */
public enum Role {
  /** The token master (serves; connects to nothing). */
  MASTER,
  /** A queue server (serves; connects to nothing). */
  QUEUE,
  /** A workers process: claims and updates workflow jobs, publishes its heartbeat, serves logs. */
  WORKER,
  /** The scheduler: writes schedules and starts workflow instances. */
  SCHEDULER,
  /** The web UI: reads everything and acts for the operator signed in to it. */
  UI,
  /** People and scripts that apply definitions and control runs. */
  OPERATOR,
  /** Operators who may also delete: definitions, archived runs, queues and queued jobs. */
  ADMIN,
  /** An application using the queue: enqueues, dequeues, acknowledges and looks up jobs. */
  APP;

  /** The role as written in certificates and configs, e.g. {@code "worker"}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** IllegalArgumentException naming the allowed roles if {@code text} is none of them. */
  public static Role parse(String text) {
    for (Role role : values()) {
      if (role.label().equals(text)) {
        return role;
      }
    }
    throw new IllegalArgumentException("unknown role \"" + text + "\"; allowed: " + labels());
  }

  /** Every role's label, comma-separated, for error messages and help. */
  public static String labels() {
    return Arrays.stream(values()).map(Role::label).collect(Collectors.joining(", "));
  }
}
