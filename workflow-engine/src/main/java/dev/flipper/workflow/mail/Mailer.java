package dev.flipper.workflow.mail;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.ssl.SSLSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends notification e-mail over SMTP (Jakarta Mail, Angus implementation) on one background
 * thread, so a slow or dead mail server never holds up a scheduler or a worker. {@link #send} only
 * queues the message and never throws; each message is tried {@link MailSettings#attempts()} times
 * with doubling waits, and a message that still fails is logged and dropped. Thread-safe.
 */
public final class Mailer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Mailer.class);

  private final MailSettings settings;
  private final Session session;
  private final ExecutorService sender;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  public Mailer(MailSettings settings) {
    this(settings, null);
  }

  /**
   * @param tlsSockets makes the TLS sockets (SMTPS and STARTTLS); null = the JVM's default trust
   *     store. Tests use it to trust their own server's certificate; the server's host name is
   *     checked either way.
   */
  Mailer(MailSettings settings, SSLSocketFactory tlsSockets) {
    this.settings = settings;
    Properties properties = properties(settings);
    if (tlsSockets != null) {
      properties.put("mail." + protocol(settings) + ".ssl.socketFactory", tlsSockets);
    }
    this.session = Session.getInstance(properties);
    this.sender =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "flipper-mailer");
              thread.setDaemon(true);
              return thread;
            });
    log.info("mail: {}", settings);
  }

  public MailSettings settings() {
    return settings;
  }

  /** Queues {@code mail} (plus the settings' {@code to}); returns at once and never throws. */
  public void send(Mail mail) {
    addressed(mail)
        .ifPresent(
            full -> {
              try {
                sender.execute(() -> deliver(full));
              } catch (RejectedExecutionException e) {
                log.warn(
                    "mail '{}' to {} not sent: the mailer is closed", full.subject(), full.to());
              }
            });
  }

  /**
   * The message with the settings' {@code to} added; empty if mail is off or nobody would get it.
   */
  private Optional<Mail> addressed(Mail mail) {
    List<String> to = new ArrayList<>(mail.to());
    to.addAll(settings.to());
    Mail full = new Mail(to, mail.subject(), mail.text(), mail.html());
    if (!settings.enabled()) {
      log.debug(
          "mail is off (email.enabled: false); not sent: '{}' to {}", full.subject(), full.to());
      return Optional.empty();
    }
    if (full.to().isEmpty()) {
      log.debug("mail '{}' has no recipients; not sent", full.subject());
      return Optional.empty();
    }
    return Optional.of(full);
  }

  /**
   * Queues a message that is composed on the mail thread, for messages that need reads of their own
   * (an instance's jobs): the caller's thread does no I/O. Returns at once and never throws; a
   * {@code compose} that throws is logged, and one that returns empty sends nothing.
   */
  public void sendLater(String what, Supplier<Optional<Mail>> compose) {
    if (!settings.enabled()) {
      log.debug("mail is off (email.enabled: false); not composed: {}", what);
      return;
    }
    try {
      sender.execute(
          () -> {
            Optional<Mail> mail;
            try {
              mail = compose.get();
            } catch (RuntimeException e) {
              failed.incrementAndGet();
              log.error("mail '{}' not sent: composing it failed: {}", what, e.toString());
              return;
            }
            mail.flatMap(this::addressed).ifPresent(this::deliver);
          });
    } catch (RejectedExecutionException e) {
      log.warn("mail '{}' not sent: the mailer is closed", what);
    }
  }

  /** Messages delivered so far. */
  public long sentCount() {
    return sent.get();
  }

  /** Messages given up after their last attempt. */
  public long failedCount() {
    return failed.get();
  }

  private void deliver(Mail mail) {
    Duration wait = settings.retryDelay();
    for (int attempt = 1; ; attempt++) {
      try {
        if (settings.user().isEmpty()) {
          Transport.send(message(mail));
        } else {
          Transport.send(message(mail), settings.user(), settings.password());
        }
        sent.incrementAndGet();
        log.debug("mail '{}' sent to {}", mail.subject(), mail.to());
        return;
      } catch (MessagingException | RuntimeException e) {
        if (attempt >= settings.attempts()) {
          failed.incrementAndGet();
          log.error(
              "mail '{}' to {} not sent after {} attempt(s) via {}:{}: {}",
              mail.subject(),
              mail.to(),
              attempt,
              settings.smtpHost(),
              settings.smtpPort(),
              e.toString());
          return;
        }
        log.warn(
            "mail '{}' attempt {}/{} failed ({}); trying again in {}",
            mail.subject(),
            attempt,
            settings.attempts(),
            e.toString(),
            wait);
        if (!sleep(wait)) {
          return;
        }
        wait = wait.multipliedBy(2);
      }
    }
  }

  private MimeMessage message(Mail mail) throws MessagingException {
    MimeMessage message = new MimeMessage(session);
    message.setFrom(new InternetAddress(settings.from()));
    for (String to : mail.to()) {
      message.addRecipient(Message.RecipientType.TO, new InternetAddress(to));
    }
    message.setSubject(mail.subject(), StandardCharsets.UTF_8.name());
    message.setSentDate(new Date());
    MimeBodyPart text = new MimeBodyPart();
    text.setText(mail.text(), StandardCharsets.UTF_8.name());
    MimeBodyPart html = new MimeBodyPart();
    html.setContent(mail.html(), "text/html; charset=UTF-8");
    MimeMultipart alternative = new MimeMultipart("alternative");
    alternative.addBodyPart(text); // the last part is the preferred one: HTML
    alternative.addBodyPart(html);
    message.setContent(alternative);
    return message;
  }

  private static boolean sleep(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closing: give up the retries
      return false;
    }
  }

  private static String protocol(MailSettings settings) {
    return settings.security() == MailSecurity.TLS ? "smtps" : "smtp";
  }

  private static Properties properties(MailSettings settings) {
    String protocol = protocol(settings);
    String prefix = "mail." + protocol + ".";
    String timeout = Long.toString(settings.timeout().toMillis());
    Properties p = new Properties();
    p.setProperty("mail.transport.protocol", protocol);
    p.setProperty(
        "mail.transport.protocol.rfc822", protocol); // what Transport.send picks for an address
    p.setProperty(prefix + "host", settings.smtpHost());
    p.setProperty(prefix + "port", Integer.toString(settings.smtpPort()));
    p.setProperty(prefix + "connectiontimeout", timeout);
    p.setProperty(prefix + "timeout", timeout);
    p.setProperty(prefix + "writetimeout", timeout);
    p.setProperty(prefix + "auth", Boolean.toString(!settings.user().isEmpty()));
    if (settings.security() == MailSecurity.STARTTLS) {
      p.setProperty(prefix + "starttls.enable", "true");
      p.setProperty(prefix + "starttls.required", "true");
    }
    if (settings.security() != MailSecurity.NONE) {
      p.setProperty(prefix + "ssl.checkserveridentity", "true");
    }
    return p;
  }

  /**
   * Waits up to {@code grace} for queued messages, then stops; messages still queued are dropped
   * and logged.
   */
  public void close(Duration grace) {
    sender.shutdown();
    try {
      if (!sender.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        int dropped = sender.shutdownNow().size();
        log.warn("mailer closed with {} message(s) unsent", dropped);
      }
    } catch (InterruptedException e) {
      sender.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(5));
  }
}
