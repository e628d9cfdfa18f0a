package dev.flipper.workflow.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetup;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.Mailer;
import dev.flipper.workflow.mail.UiLinks;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workers' e-mail, end to end: two worker daemons (each with its own engine and mailer, as two
 * processes would be) on one master, real shell jobs, GreenMail on an ephemeral port. Each event is
 * mailed once, to the job's and the workflow's recipients, with links into the UI and escaped HTML.
 */
@Tag("processes")
class WorkerMailTest {
  @RegisterExtension
  static final GreenMailExtension smtp =
      new GreenMailExtension(
          new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());

  private static final UiLinks LINKS = new UiLinks("http://ui.test:8080");

  private final TokenService master = TokenService.builder(InMemoryTokenStore.create()).build();
  private final WorkflowEngine engine = WorkflowEngine.builder(master).build();
  private final List<AutoCloseable> open = new ArrayList<>();
  @TempDir Path dir;

  @AfterEach
  void stop() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** A worker "process": its own mailer, notifier, engine and slots, mailing to GreenMail. */
  private Mailer worker(String name, int slots) {
    return worker(name, slots, smtp.getSmtp().getPort());
  }

  private Mailer worker(String name, int slots, int smtpPort) {
    Mailer mailer =
        new Mailer(
            MailSettings.smtp("127.0.0.1", smtpPort, "flipper@example.com")
                .withRetries(2, Duration.ofMillis(10), Duration.ofSeconds(5)));
    MailNotifier notifier =
        new MailNotifier(mailer, LINKS, WorkflowEngine.builder(master).build().status());
    WorkerDaemon.Config config =
        new WorkerDaemon.Config(
            slots,
            Duration.ofSeconds(3),
            Duration.ofHours(12),
            Duration.ofSeconds(5),
            dir.resolve(name).toString(),
            "",
            "127.0.0.1",
            "127.0.0.1");
    WorkerDaemon daemon =
        new WorkerDaemon(config, master, new MetricRegistry())
            .serveLogsAt(() -> "http://" + name + ":9093")
            .warnTimeoutAlert(notifier)
            .engineListener(notifier);
    open.add(mailer); // closed after the daemon: queued mail still goes out
    open.add(daemon);
    daemon.start();
    return mailer;
  }

  private String start(WorkflowDefinition definition) {
    engine.definitions().apply(List.of(definition));
    return engine.instances().start(definition.name());
  }

  private void awaitEnd(String workflow, String instance) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                engine.status().instance(workflow, instance).orElseThrow().summary().status()
                    != InstanceStatus.RUNNING);
  }

  /** Messages sent (not deliveries: GreenMail keeps one copy per recipient), by subject. */
  private static Map<String, List<MimeMessage>> sentBySubject() throws MessagingException {
    Map<String, List<MimeMessage>> bySubject = new LinkedHashMap<>();
    List<String> seen = new ArrayList<>();
    for (MimeMessage message : smtp.getReceivedMessages()) {
      if (!seen.contains(message.getMessageID())) {
        seen.add(message.getMessageID());
        bySubject.computeIfAbsent(message.getSubject(), s -> new ArrayList<>()).add(message);
      }
    }
    return bySubject;
  }

  private static List<String> to(MimeMessage message) throws MessagingException {
    return Arrays.stream(message.getRecipients(Message.RecipientType.TO))
        .map(Object::toString)
        .toList();
  }

  private static String part(MimeMessage message, int index) throws Exception {
    return (String) ((MimeMultipart) message.getContent()).getBodyPart(index).getContent();
  }

  @Test
  void failuresWarningAndInstanceEndAreEachMailedOnceToTheJobAndTheWorkflow() throws Exception {
    worker("w1", 2);
    worker("w2", 2);
    WorkflowDefinition definition =
        WorkflowDefinition.builder("mailwf")
            .emails("team@example.com")
            .job(JobDefinition.builder("prepare").command("true"))
            .job(
                JobDefinition.builder("bad")
                    .needs("prepare")
                    .command("echo '<b>oops</b>'; exit 3")
                    .maxAttempts(2)
                    .emails("oncall@example.com"))
            .job(JobDefinition.builder("other").command("exit 4").emails("other@example.com"))
            .job(
                JobDefinition.builder("slowpoke")
                    .command("sleep 2")
                    .warnTimeout(Duration.ofMillis(300))
                    .emails("slow@example.com"))
            .build();
    String instance = start(definition);
    awaitEnd("mailwf", instance);
    String end = "FAILURE for workflow mailwf";
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> sentBySubject().containsKey(end) && sentBySubject().size() >= 4);

    Map<String, List<MimeMessage>> sent = sentBySubject();
    assertThat(sent.keySet())
        .containsExactlyInAnyOrder(
            "Workflow mailwf's job bad finished with exit code 3",
            "Workflow mailwf's job other finished with exit code 4",
            "Workflow mailwf's job slowpoke exceeded timeout",
            end);
    assertThat(sent.values()).allSatisfy(messages -> assertThat(messages).hasSize(1)); // once each

    // The workflow's emails get the first failure only: whichever of the two failed first.
    MimeMessage bad = sent.get("Workflow mailwf's job bad finished with exit code 3").get(0);
    MimeMessage other = sent.get("Workflow mailwf's job other finished with exit code 4").get(0);
    assertThat(to(bad)).startsWith("oncall@example.com");
    assertThat(to(other)).startsWith("other@example.com");
    assertThat(to(bad).contains("team@example.com") ^ to(other).contains("team@example.com"))
        .isTrue();

    String badText = part(bad, 0);
    String badHtml = part(bad, 1);
    assertThat(badText)
        .contains(
            "Command: echo '<b>oops</b>'; exit 3",
            "Exit code: 3",
            "Execution: 2",
            "http://ui.test:8080/workflows/mailwf/instances/" + instance + "/jobs/bad",
            "Log stdout: http://w");
    assertThat(badHtml)
        .contains("echo &#39;&lt;b&gt;oops&lt;/b&gt;&#39;; exit 3")
        .doesNotContain("<b>oops");

    MimeMessage warning = sent.get("Workflow mailwf's job slowpoke exceeded timeout").get(0);
    assertThat(to(warning)).containsExactly("slow@example.com", "team@example.com");
    assertThat(part(warning, 0)).contains("Running for more than 300ms", "Command: sleep 2");

    MimeMessage ended = sent.get(end).get(0);
    assertThat(to(ended)).containsExactly("team@example.com");
    String endText = part(ended, 0);
    assertThat(endText)
        .contains(
            "Status: FAILURE",
            "http://ui.test:8080/workflows/mailwf/instances/" + instance,
            "  bad  FAILURE",
            "  other  FAILURE",
            "  prepare  SUCCESS",
            "  slowpoke  SUCCESS");
    assertThat(part(ended, 1))
        .contains(
            "href=\"http://ui.test:8080/workflows/mailwf/instances/"
                + instance
                + "/jobs/slowpoke\"");
  }

  @Test
  void aSuccessIsMailedToTheWorkflowOnlyAndAWorkflowWithoutEmailsGetsNone() throws Exception {
    worker("w1", 2);
    String quiet =
        start(
            WorkflowDefinition.builder("quiet")
                .job(JobDefinition.builder("a").command("true"))
                .build());
    String loud =
        start(
            WorkflowDefinition.builder("loud")
                .emails("data@example.com", "ops@example.com")
                .job(JobDefinition.builder("a").command("true"))
                .job(
                    JobDefinition.builder("b")
                        .needs("a")
                        .command("true")
                        .emails("b-owner@example.com"))
                .build());
    awaitEnd("quiet", quiet);
    awaitEnd("loud", loud);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> sentBySubject().containsKey("SUCCESS for workflow loud"));

    Map<String, List<MimeMessage>> sent = sentBySubject();
    assertThat(sent.keySet()).containsExactly("SUCCESS for workflow loud");
    MimeMessage message = sent.get("SUCCESS for workflow loud").get(0);
    assertThat(to(message)).containsExactly("data@example.com", "ops@example.com");
    assertThat(part(message, 0))
        .contains(
            "Instance: " + loud + " (http://ui.test:8080/workflows/loud/instances/" + loud + ")",
            "  a  SUCCESS",
            "  b  SUCCESS");
  }

  @Test
  void aDeadMailServerNeitherBlocksNorStopsTheWorker() throws Exception {
    int deadPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      deadPort = socket.getLocalPort(); // closed again: nothing listens there
    }
    Mailer mailer = worker("w1", 1, deadPort);
    WorkflowDefinition definition =
        WorkflowDefinition.builder("unmailed")
            .emails("team@example.com")
            .job(JobDefinition.builder("a").command("exit 2").emails("a@example.com"))
            .build();
    String first = start(definition);
    awaitEnd("unmailed", first);
    String second = engine.instances().start("unmailed"); // the worker goes on taking jobs
    awaitEnd("unmailed", second);

    // Each instance: a failure and an end message, each given up after its attempts.
    await().atMost(Duration.ofSeconds(30)).until(() -> mailer.failedCount() == 4);
    assertThat(mailer.sentCount()).isZero();
    assertThat(engine.status().instance("unmailed", second).orElseThrow().summary().status())
        .isEqualTo(InstanceStatus.FAILURE);
  }

  @Test
  void anAbortedInstanceIsMailedWhenArchivedTheOthersWhenTheyEnd() throws Exception {
    try (Mailer mailer =
        new Mailer(
            MailSettings.smtp("127.0.0.1", smtp.getSmtp().getPort(), "flipper@example.com"))) {
      MailNotifier notifier = new MailNotifier(mailer, LINKS, engine.status());
      java.time.Instant start = java.time.Instant.parse("2026-11-24T03:00:00Z");
      notifier.instanceArchived(
          new dev.flipper.workflow.engine.InstanceSummary(
              "wf",
              "17",
              InstanceStatus.SUCCESS,
              start,
              java.util.Optional.of(start.plusSeconds(5)),
              "v1",
              "cli",
              Map.of(),
              List.of(),
              java.util.Optional.empty()),
          List.of("team@example.com"));
      notifier.instanceArchived(
          new dev.flipper.workflow.engine.InstanceSummary(
              "wf",
              "18",
              InstanceStatus.ABORTED,
              start,
              java.util.Optional.of(start.plusSeconds(9)),
              "v1",
              "cli",
              Map.of(),
              List.of(),
              java.util.Optional.empty()),
          List.of("team@example.com"));
      mailer.close(Duration.ofSeconds(10));

      Map<String, List<MimeMessage>> sent = sentBySubject();
      assertThat(sent.keySet()).containsExactly("ABORTED for workflow wf");
      MimeMessage aborted = sent.get("ABORTED for workflow wf").get(0);
      assertThat(to(aborted)).containsExactly("team@example.com");
      assertThat(part(aborted, 0))
          .contains("Instance: 18 (http://ui.test:8080/workflows/wf/instances/18)", "Run time: 9s");
    }
  }
}
