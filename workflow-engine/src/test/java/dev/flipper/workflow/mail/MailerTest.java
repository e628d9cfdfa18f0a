package dev.flipper.workflow.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The mailer against GreenMail, an SMTP server in the test's JVM on an ephemeral port. */
class MailerTest {
  @RegisterExtension
  static final GreenMailExtension smtp =
      new GreenMailExtension(
          new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());

  private static final Notifications NOTES =
      new Notifications(new UiLinks("http://ui.example:8080/"));
  private static final Instant START = Instant.parse("2026-11-24T03:00:00Z");

  private Mailer mailer() {
    return new Mailer(
        MailSettings.smtp("127.0.0.1", smtp.getSmtp().getPort(), "flipper@example.com")
            .withRetries(2, Duration.ofMillis(10), Duration.ofSeconds(5)));
  }

  private static MimeMessage[] received(int count) {
    await().atMost(Duration.ofSeconds(20)).until(() -> smtp.getReceivedMessages().length >= count);
    return smtp.getReceivedMessages();
  }

  private static String part(MimeMessage message, int index) throws Exception {
    return (String) ((MimeMultipart) message.getContent()).getBodyPart(index).getContent();
  }

  private static List<String> to(MimeMessage message) throws Exception {
    return Arrays.stream(message.getRecipients(Message.RecipientType.TO))
        .map(Object::toString)
        .toList();
  }

  @Test
  void jobFailureGoesToTheJobAndTheWorkflowWithEscapedHtmlAndLinks() throws Exception {
    Notifications.Attempt attempt =
        new Notifications.Attempt(
            "etl",
            "1764000000000",
            "load",
            2,
            "./load.sh <day> && echo \"done\"",
            START,
            Optional.of(START.plusSeconds(65)),
            Optional.of(3),
            Optional.empty(),
            Map.of("stdout", "http://w1:9100/logs/etl/1764000000000/load.2.stdout"));
    List<String> to =
        Notifications.recipients(
            List.of("oncall@example.com"), List.of("data@example.com", "oncall@example.com"));
    try (Mailer mailer = mailer()) {
      mailer.send(NOTES.jobFailure(attempt, to));
      MimeMessage message = received(2)[0]; // one delivery per recipient: wait for both
      // The same address in the job's and the workflow's list gets one message.
      assertThat(to(message)).containsExactly("oncall@example.com", "data@example.com");
      assertThat(smtp.getReceivedMessages()).hasSize(2);
      assertThat(message.getSubject())
          .isEqualTo("Workflow etl's job load finished with exit code 3");
      assertThat(message.getFrom()[0].toString()).isEqualTo("flipper@example.com");
      String text = part(message, 0);
      String html = part(message, 1);
      assertThat(text)
          .contains(
              "Command: ./load.sh <day> && echo \"done\"",
              "Exit code: 3",
              "Run time: 1m 5s",
              "Execution: 2",
              "http://ui.example:8080/workflows/etl/instances/1764000000000/jobs/load",
              "Log stdout: http://w1:9100/logs/etl/1764000000000/load.2.stdout");
      assertThat(html)
          .contains("<code>./load.sh &lt;day&gt; &amp;&amp; echo &quot;done&quot;</code>")
          .doesNotContain("<day>")
          .contains("href=\"http://ui.example:8080/workflows/etl/instances/1764000000000\"")
          .contains("color:red");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> mailer.sentCount() == 1); // counted after the server took it
    }
  }

  @Test
  void timeoutWarningInstanceEndAndTooManyInstances() throws Exception {
    Notifications.Attempt running =
        new Notifications.Attempt(
            "etl",
            "17",
            "transform",
            0,
            "sleep 9999",
            START,
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Map.of());
    List<Notifications.JobLine> jobs =
        List.of(
            new Notifications.JobLine(
                "b<script>",
                Optional.of(START.plusSeconds(10)),
                Optional.of(START.plusSeconds(20)),
                "SUCCESS"),
            new Notifications.JobLine(
                "a", Optional.of(START), Optional.of(START.plusSeconds(10)), "SUCCESS"));
    try (Mailer mailer = mailer()) {
      mailer.send(
          NOTES.timeoutWarning(running, Duration.ofMinutes(30), List.of("oncall@example.com")));
      mailer.send(
          NOTES.instanceEnd(
              "etl",
              "17",
              "SUCCESS",
              START,
              START.plusSeconds(20),
              jobs,
              List.of("data@example.com")));
      mailer.send(NOTES.tooManyInstances("etl", 3, 3, START, List.of("data@example.com")));
      MimeMessage[] messages = received(3);
      assertThat(messages[0].getSubject())
          .isEqualTo("Workflow etl's job transform exceeded timeout");
      assertThat(part(messages[0], 0))
          .contains("Running for more than 30m", "Command: sleep 9999")
          .doesNotContain("Exit code");
      assertThat(to(messages[1])).containsExactly("data@example.com");
      assertThat(messages[1].getSubject()).isEqualTo("SUCCESS for workflow etl");
      String text = part(messages[1], 0);
      assertThat(text.indexOf("  a  ")).isLessThan(text.indexOf("  b<script>  ")); // by last start
      assertThat(part(messages[1], 1)).contains("b&lt;script&gt;").doesNotContain("<script>");
      assertThat(messages[2].getSubject())
          .isEqualTo("Too many (3) instances running for workflow etl");
      assertThat(part(messages[2], 0))
          .contains("maxRunning is 3", "http://ui.example:8080/workflows/etl");
    }
  }

  @Test
  void aDeadServerFailsInTheBackgroundAfterItsRetriesWithoutThrowing() throws IOException {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort(); // closed again: nothing listens there
    }
    Mailer mailer =
        new Mailer(
            MailSettings.smtp("127.0.0.1", deadPort, "flipper@example.com")
                .withRetries(3, Duration.ofMillis(10), Duration.ofSeconds(2)));
    try (mailer) {
      long before = System.nanoTime();
      mailer.send(NOTES.tooManyInstances("etl", 3, 3, START, List.of("data@example.com")));
      assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(1));
      await().atMost(Duration.ofSeconds(30)).until(() -> mailer.failedCount() == 1);
      assertThat(mailer.sentCount()).isZero();
    }
  }

  @Test
  void aMessageWithoutRecipientsIsNotSent() {
    try (Mailer mailer = mailer()) {
      mailer.send(NOTES.tooManyInstances("etl", 3, 3, START, List.of()));
      mailer.close(Duration.ofSeconds(5));
      assertThat(smtp.getReceivedMessages()).isEmpty();
      assertThat(mailer.sentCount() + mailer.failedCount()).isZero();
    }
  }

  @Test
  void mailOffSendsNothing() {
    try (Mailer mailer = new Mailer(MailSettings.disabled())) {
      mailer.send(NOTES.tooManyInstances("etl", 3, 3, START, List.of("data@example.com")));
      mailer.close(Duration.ofSeconds(5));
      assertThat(mailer.sentCount() + mailer.failedCount()).isZero();
    }
  }

  @Test
  void settingsAreCheckedWhenMailIsOn() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> MailSettings.smtp("", 25, "f@x"))
        .hasMessageContaining("email.smtpHost and email.from must be set");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> MailSettings.smtp("h", 0, "f@x"))
        .hasMessageContaining("email.smtpPort");
  }

  @Test
  void settingsHideThePassword() {
    assertThat(
            MailSettings.smtp("h", 587, "f@x")
                .withSecurity(MailSecurity.STARTTLS)
                .withLogin("u", "s3cret"))
        .asString()
        .contains("user=u", "password=****", "STARTTLS")
        .doesNotContain("s3cret");
  }
}
