package dev.flipper.workflow.mail;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where and how notification e-mail is sent: the {@code email.*} settings. Immutable; {@link #toString()} masks
 * the password so the settings can be logged at start-up.
 *
 * @param smtpHost SMTP server host
 * @param smtpPort SMTP server port, 1 to 65535 (25, 587 with STARTTLS, 465 with TLS)
 * @param user login; empty = no authentication
 * @param password password for {@code user}
 * @param security plain, STARTTLS or TLS
 * @param from sender address
 * @param alwaysTo recipients added to every message (the config's {@code email.to}); may be empty
 * @param uiBaseUrl the UI's address for links in messages, e.g. {@code http://flipper.example.com:8080}
 * @param attempts how many times one message is tried, at least 1
 * @param firstRetryDelay the wait before the second attempt; it doubles for each further attempt
 * @param timeout connect, read and write time-out of each attempt
 */
public record MailSettings(
    String smtpHost,
    int smtpPort,
    String user,
    String password,
    MailSecurity security,
    String from,
    List<String> alwaysTo,
    String uiBaseUrl,
    int attempts,
    Duration firstRetryDelay,
    Duration timeout) {

  public MailSettings {
    Objects.requireNonNull(smtpHost, "smtpHost");
    user = user == null ? "" : user;
    password = password == null ? "" : password;
    Objects.requireNonNull(security, "security");
    Objects.requireNonNull(from, "from");
    alwaysTo = List.copyOf(alwaysTo);
    uiBaseUrl = uiBaseUrl == null ? "" : uiBaseUrl.replaceAll("/+$", "");
    Objects.requireNonNull(firstRetryDelay, "firstRetryDelay");
    Objects.requireNonNull(timeout, "timeout");
    if (smtpPort < 1 || smtpPort > 65535) {
      throw new IllegalArgumentException("email.smtpPort must be 1 to 65535, got " + smtpPort);
    }
    if (attempts < 1) {
      throw new IllegalArgumentException("mail attempts must be at least 1, got " + attempts);
    }
  }

  /** Plain SMTP to {@code host:port} from {@code from}, no login; 4 attempts from 5 s apart, 10 s time-outs. */
  public static MailSettings smtp(String host, int port, String from) {
    return new MailSettings(host, port, "", "", MailSecurity.NONE, from, List.of(), "", 4, Duration.ofSeconds(5),
        Duration.ofSeconds(10));
  }

  public MailSettings withLogin(String newUser, String newPassword) {
    return new MailSettings(smtpHost, smtpPort, newUser, newPassword, security, from, alwaysTo, uiBaseUrl, attempts,
        firstRetryDelay, timeout);
  }

  public MailSettings withSecurity(MailSecurity newSecurity) {
    return new MailSettings(smtpHost, smtpPort, user, password, newSecurity, from, alwaysTo, uiBaseUrl, attempts,
        firstRetryDelay, timeout);
  }

  public MailSettings withUiBaseUrl(String newUiBaseUrl) {
    return new MailSettings(smtpHost, smtpPort, user, password, security, from, alwaysTo, newUiBaseUrl, attempts,
        firstRetryDelay, timeout);
  }

  public MailSettings withAlwaysTo(List<String> newAlwaysTo) {
    return new MailSettings(smtpHost, smtpPort, user, password, security, from, newAlwaysTo, uiBaseUrl, attempts,
        firstRetryDelay, timeout);
  }

  public MailSettings withRetries(int newAttempts, Duration newFirstRetryDelay, Duration newTimeout) {
    return new MailSettings(smtpHost, smtpPort, user, password, security, from, alwaysTo, uiBaseUrl, newAttempts,
        newFirstRetryDelay, newTimeout);
  }

  @Override
  public String toString() {
    return "MailSettings[smtp=" + smtpHost + ":" + smtpPort + ", security=" + security + ", user="
        + (user.isEmpty() ? "(none)" : user) + ", password=" + (password.isEmpty() ? "(none)" : "****") + ", from="
        + from + ", alwaysTo=" + alwaysTo + ", uiBaseUrl=" + uiBaseUrl + ", attempts=" + attempts
        + ", firstRetryDelay=" + firstRetryDelay + ", timeout=" + timeout + "]";
  }
}
