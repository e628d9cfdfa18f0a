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
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends notification e-mail over SMTP (Jakarta Mail, Angus implementation) on one background thread, so a slow or
 * dead mail server never holds up a scheduler or a worker. {@link #send} only queues the message and never
 * throws; each message is tried {@link MailSettings#attempts()} times with doubling waits, and a message that
 * still fails is logged and dropped. Thread-safe.
 */
public final class Mailer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Mailer.class);

  private final MailSettings settings;
  private final Session session;
  private final ExecutorService sender;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  public Mailer(MailSettings settings) {
    this.settings = settings;
    this.session = Session.getInstance(properties(settings));
    this.sender = Executors.newSingleThreadExecutor(runnable -> {
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
    List<String> to = new ArrayList<>(mail.to());
    to.addAll(settings.to());
    Mail full = new Mail(to, mail.subject(), mail.text(), mail.html());
    if (!settings.enabled()) {
      log.debug("mail is off (email.enabled: false); not sent: '{}' to {}", full.subject(), full.to());
      return;
    }
    if (full.to().isEmpty()) {
      log.debug("mail '{}' has no recipients; not sent", full.subject());
      return;
    }
    try {
      sender.execute(() -> deliver(full));
    } catch (RejectedExecutionException e) {
      log.warn("mail '{}' to {} not sent: the mailer is closed", full.subject(), full.to());
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
          log.error("mail '{}' to {} not sent after {} attempt(s) via {}:{}: {}", mail.subject(), mail.to(),
              attempt, settings.smtpHost(), settings.smtpPort(), e.toString());
          return;
        }
        log.warn("mail '{}' attempt {}/{} failed ({}); trying again in {}", mail.subject(), attempt,
            settings.attempts(), e.toString(), wait);
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

  private static Properties properties(MailSettings settings) {
    String protocol = settings.security() == MailSecurity.TLS ? "smtps" : "smtp";
    String prefix = "mail." + protocol + ".";
    String timeout = Long.toString(settings.timeout().toMillis());
    Properties p = new Properties();
    p.setProperty("mail.transport.protocol", protocol);
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

  /** Waits up to {@code grace} for queued messages, then stops; messages still queued are dropped and logged. */
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
