package dev.flipper.workflow.mail;

import dev.flipper.text.DurationText;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@code email.*} settings: where and how notification e-mail is sent. The components are named
 * after the config keys ({@code email.smtpHost} is {@link #smtpHost()}), so the launcher binds the
 * section straight into this type. Immutable; {@link #toString()} masks the password, so the
 * settings can be logged at start-up.
 *
 * @param enabled send mail at all; false: every message is dropped (and logged at debug)
 * @param smtpHost SMTP server host; required when enabled
 * @param smtpPort SMTP server port, 1 to 65535 (25; 587 with STARTTLS; 465 with TLS)
 * @param user login; empty = no authentication
 * @param password password for {@code user}; never logged
 * @param security {@code NONE}, {@code STARTTLS} (then required) or {@code TLS} from the first byte
 * @param from sender address; required when enabled
 * @param to recipients added to every message (operators); may be empty
 * @param attempts how many times one message is tried, at least 1 (default 4)
 * @param retryDelay the wait before the second attempt; it doubles for each further attempt
 *     (default 5s)
 * @param timeout connect, read and write time-out of each attempt (default 10s)
 * @param allowPlainTextPassword whether a password may go over a plain connection (security {@code
 *     NONE} with a password, mail enabled); false (the default) refuses such settings
 */
public record MailSettings(
    boolean enabled,
    String smtpHost,
    int smtpPort,
    String user,
    String password,
    MailSecurity security,
    String from,
    List<String> to,
    int attempts,
    Duration retryDelay,
    Duration timeout,
    boolean allowPlainTextPassword) {

  /** Plain SMTP's port. */
  public static final int DEFAULT_SMTP_PORT = 25;

  public static final int DEFAULT_ATTEMPTS = 4;
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(5);
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** A password goes only over STARTTLS or TLS unless allowed. */
  public static final boolean DEFAULT_ALLOW_PLAIN_TEXT_PASSWORD = false;

  public MailSettings {
    smtpHost = smtpHost == null ? "" : smtpHost.strip();
    user = user == null ? "" : user;
    password = password == null ? "" : password;
    security = security == null ? MailSecurity.NONE : security;
    from = from == null ? "" : from.strip();
    to = to == null ? List.of() : List.copyOf(to);
    retryDelay = Objects.requireNonNullElse(retryDelay, DEFAULT_RETRY_DELAY);
    timeout = Objects.requireNonNullElse(timeout, DEFAULT_TIMEOUT);
    if (smtpPort < 1 || smtpPort > 65535) {
      throw new IllegalArgumentException("email.smtpPort must be 1 to 65535, got " + smtpPort);
    }
    if (attempts < 1) {
      throw new IllegalArgumentException("email.attempts must be at least 1, got " + attempts);
    }
    if (retryDelay.isNegative() || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          "email.retryDelay must be 0s or more and email.timeout more than 0s, got "
              + DurationText.format(retryDelay)
              + " and "
              + DurationText.format(timeout));
    }
    if (sendsPasswordInClear() && !allowPlainTextPassword) {
      throw new IllegalArgumentException(PLAIN_TEXT_PASSWORD);
    }
    if (enabled && (smtpHost.isEmpty() || from.isEmpty())) {
      throw new IllegalArgumentException(
          "email.enabled is true, so email.smtpHost and email.from must be set "
              + "(got '"
              + smtpHost
              + "' and '"
              + from
              + "')");
    }
  }

  /**
   * Mail off, every other setting at its default: the defaults of the launcher's {@code email}
   * section.
   */
  public static MailSettings disabled() {
    return new MailSettings(
        false,
        "",
        DEFAULT_SMTP_PORT,
        "",
        "",
        MailSecurity.NONE,
        "",
        List.of(),
        DEFAULT_ATTEMPTS,
        DEFAULT_RETRY_DELAY,
        DEFAULT_TIMEOUT,
        DEFAULT_ALLOW_PLAIN_TEXT_PASSWORD);
  }

  /** Plain SMTP to {@code host:port} from {@code from}, no login, default retries and time-outs. */
  public static MailSettings smtp(String host, int port, String from) {
    return new MailSettings(
        true,
        host,
        port,
        "",
        "",
        MailSecurity.NONE,
        from,
        List.of(),
        DEFAULT_ATTEMPTS,
        DEFAULT_RETRY_DELAY,
        DEFAULT_TIMEOUT,
        DEFAULT_ALLOW_PLAIN_TEXT_PASSWORD);
  }

  public MailSettings withLogin(String newUser, String newPassword) {
    return new MailSettings(
        enabled,
        smtpHost,
        smtpPort,
        newUser,
        newPassword,
        security,
        from,
        to,
        attempts,
        retryDelay,
        timeout,
        allowPlainTextPassword);
  }

  public MailSettings withSecurity(MailSecurity newSecurity) {
    return new MailSettings(
        enabled,
        smtpHost,
        smtpPort,
        user,
        password,
        newSecurity,
        from,
        to,
        attempts,
        retryDelay,
        timeout,
        allowPlainTextPassword);
  }

  public MailSettings withTo(List<String> newTo) {
    return new MailSettings(
        enabled,
        smtpHost,
        smtpPort,
        user,
        password,
        security,
        from,
        newTo,
        attempts,
        retryDelay,
        timeout,
        allowPlainTextPassword);
  }

  public MailSettings withRetries(int newAttempts, Duration newRetryDelay, Duration newTimeout) {
    return new MailSettings(
        enabled,
        smtpHost,
        smtpPort,
        user,
        password,
        security,
        from,
        to,
        newAttempts,
        newRetryDelay,
        newTimeout,
        allowPlainTextPassword);
  }

  /** Why settings that would send the password in clear are refused. */
  public static final String PLAIN_TEXT_PASSWORD =
      "email.password is set but email.security is NONE, so the SMTP password would go over the "
          + "network in clear: set email.security to STARTTLS or TLS, or email.allowPlainTextPassword "
          + "to true to accept that";

  /** Whether a login would send the password over a plain connection. */
  public boolean sendsPasswordInClear() {
    return enabled && security == MailSecurity.NONE && !password.isEmpty();
  }

  /** These settings, allowed (or not) to send the password over a plain connection. */
  public MailSettings withPlainTextPasswordAllowed(boolean allowed) {
    return new MailSettings(
        enabled,
        smtpHost,
        smtpPort,
        user,
        password,
        security,
        from,
        to,
        attempts,
        retryDelay,
        timeout,
        allowed);
  }

  @Override
  public String toString() {
    return "MailSettings[enabled="
        + enabled
        + ", smtp="
        + smtpHost
        + ":"
        + smtpPort
        + ", security="
        + security
        + ", user="
        + (user.isEmpty() ? "(none)" : user)
        + ", password="
        + (password.isEmpty() ? "(none)" : "****")
        + ", from="
        + from
        + ", to="
        + to
        + ", attempts="
        + attempts
        + ", retryDelay="
        + DurationText.format(retryDelay)
        + ", timeout="
        + DurationText.format(timeout)
        + ", allowPlainTextPassword="
        + allowPlainTextPassword
        + "]";
  }
}
