package dev.flipper.workflow.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetup;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The mailer logs in when a user is set; a wrong password fails in the background. */
class MailerLoginTest {
  @RegisterExtension
  static final GreenMailExtension smtp =
      new GreenMailExtension(
              new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort())
          .withConfiguration(
              GreenMailConfiguration.aConfig()
                  .withUser("flipper@example.com", "flipper", "s3cret"));

  private static final Notifications NOTES = new Notifications(new UiLinks(""));

  private static Mailer mailer(String password) {
    return new Mailer(
        MailSettings.smtp("127.0.0.1", smtp.getSmtp().getPort(), "flipper@example.com")
            .withPlainTextPasswordAllowed(true) // GreenMail speaks plain SMTP here
            .withLogin("flipper", password)
            .withRetries(2, Duration.ofMillis(10), Duration.ofSeconds(5)));
  }

  @Test
  void theRightPasswordDelivers() {
    try (Mailer mailer = mailer("s3cret")) {
      mailer.send(NOTES.tooManyInstances("etl", 3, 3, Instant.EPOCH, List.of("data@example.com")));
      await().atMost(Duration.ofSeconds(20)).until(() -> mailer.sentCount() == 1);
      assertThat(smtp.getReceivedMessages()).hasSize(1);
    }
  }

  @Test
  void aWrongPasswordFailsWithoutThrowing() {
    try (Mailer mailer = mailer("wrong")) {
      mailer.send(NOTES.tooManyInstances("etl", 3, 3, Instant.EPOCH, List.of("data@example.com")));
      await().atMost(Duration.ofSeconds(20)).until(() -> mailer.failedCount() == 1);
      assertThat(smtp.getReceivedMessages()).isEmpty();
    }
  }
}
