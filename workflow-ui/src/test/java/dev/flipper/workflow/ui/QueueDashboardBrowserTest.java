package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The queue dashboard in a real headless Chromium against two real queue servers on one store: the
 * queues list with counts, a scan, a job looked up by descriptor (its {@code <script>} body stays
 * text), a failed job retried and seen PENDING again, a queue paused and resumed (and the other
 * server seeing it), the list following the servers without a reload, one failed job retried by
 * itself while another stays FAILED. Screenshots go to target/screenshots/queue-*.png. The tests
 * build on each other.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("browser")
class QueueDashboardBrowserTest {
  private static QueueUiFixture fixture;
  private static ChromeDriver chrome;
  private static WebDriverWait wait;

  @BeforeAll
  static void start() {
    fixture = new QueueUiFixture().seed();
    chrome = HeadlessChromium.start();
    wait = new WebDriverWait(chrome, Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    if (chrome != null) {
      chrome.quit();
    }
    fixture.close();
  }

  private static void open(String path) {
    chrome.get(fixture.base() + path);
  }

  private static Object script(String js) {
    return chrome.executeScript(js);
  }

  @Test
  @Order(1)
  void dashboardListsEveryQueueWithCountsAndState() {
    open("/");
    chrome.findElement(By.linkText("Queues")).click();
    WebElement row =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-queue=mail]")));
    assertThat(row.findElement(By.className("queue-state")).getText()).isEqualTo("running");
    assertThat(row.findElement(By.className("count-pending")).getText()).isEqualTo("4");
    assertThat(row.findElement(By.className("count-future")).getText()).isEqualTo("1");
    assertThat(row.findElement(By.className("count-failed")).getText()).isEqualTo("1");
    assertThat(row.findElement(By.className("priorities")).getText())
        .contains("p1: 3 · 1 · 0 · 0 · 0", "p2: 1 · 0 · 0 · 0 · 0", "p3: 0 · 0 · 0 · 0 · 1");
    HeadlessChromium.screenshot(chrome, "queue-dashboard");

    row.findElement(By.linkText("mail")).click();
    wait.until(ExpectedConditions.presenceOfElementLocated(By.id("jobs-table")));
    assertThat(chrome.findElements(By.cssSelector("#jobs-table tbody tr"))).hasSize(4);
    new org.openqa.selenium.support.ui.Select(chrome.findElement(By.id("scan-state")))
        .selectByVisibleText("FAILED");
    chrome.findElement(By.id("scan")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("jobs-table"), fixture.failed.toString()));
    assertThat(chrome.findElement(By.id("jobs-table")).getText())
        .contains(QueueUiFixture.XSS_BODY, "boom: <b>bad address</b>");
    assertThat(script("return typeof window.xssBody")).isEqualTo("undefined");
    HeadlessChromium.screenshot(chrome, "queue-scan-failed");
  }

  @Test
  @Order(2)
  void lookUpAFailedJobAndRetryItUntilItIsPendingAgain() {
    open("/queues");
    chrome.findElement(By.id("lookup-descriptor")).sendKeys(fixture.failed.toString());
    chrome.findElement(By.id("lookup")).click();
    wait.until(ExpectedConditions.textToBe(By.id("job-state"), "FAILED"));
    assertThat(chrome.findElement(By.id("job-body")).getText()).isEqualTo(QueueUiFixture.XSS_BODY);
    assertThat(script("return typeof window.xssBody")).isEqualTo("undefined");
    HeadlessChromium.screenshot(chrome, "queue-job-failed");

    chrome.findElement(By.id("action-retry")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("confirm-question"), "Retry 1 failed job(s) of queue mail (priority 3)"));
    assertThat(fixture.clientB.count(CountParams.of("mail", JobState.FAILED)))
        .as("asking changes nothing")
        .isEqualTo(1);
    HeadlessChromium.screenshot(chrome, "queue-retry-confirm");
    chrome.findElement(By.id("confirm")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("result"), "1 job(s) FAILED → PENDING"));
    HeadlessChromium.screenshot(chrome, "queue-retry-done");

    open("/queue-job?descriptor=" + fixture.failed);
    wait.until(ExpectedConditions.textToBe(By.id("job-state"), "PENDING"));
    assertThat(chrome.findElement(By.id("job-attempts")).getText()).isEqualTo("1 left of 1");
    HeadlessChromium.screenshot(chrome, "queue-job-pending-again");
  }

  @Test
  @Order(3)
  void pauseAndResumeAQueueOnEveryServer() {
    open("/queues/mail");
    chrome.findElement(By.id("action-pause")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "running → paused"));
    HeadlessChromium.screenshot(chrome, "queue-pause-done");
    assertThat(fixture.clientB.pausedQueues())
        .as("the store the other server reads")
        .contains("mail");

    chrome.findElement(By.cssSelector("nav.crumbs a")).click();
    wait.until(ExpectedConditions.textToBe(By.id("queue-state"), "paused"));
    HeadlessChromium.screenshot(chrome, "queue-paused");

    chrome.findElement(By.id("action-resume")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "paused → running"));
    chrome.findElement(By.cssSelector("nav.crumbs a")).click();
    wait.until(ExpectedConditions.textToBe(By.id("queue-state"), "running"));
    assertThat(fixture.clientB.pausedQueues()).doesNotContain("mail");
  }

  @Test
  @Order(4)
  void dashboardFollowsTheServersWithoutReloading() {
    open("/queues");
    By pending = By.cssSelector("tr[data-queue=mail] .count-pending");
    int before =
        Integer.parseInt(
            wait.until(ExpectedConditions.presenceOfElementLocated(pending)).getText());
    script("window.notReloaded = true");

    fixture.clientB.enqueue("mail", NewJob.of("one more"));

    wait.until(ExpectedConditions.textToBe(pending, Integer.toString(before + 1)));
    assertThat(script("return window.notReloaded")).isEqualTo(true);
    HeadlessChromium.screenshot(chrome, "queue-dashboard-refreshed");
  }

  @Test
  @Order(5)
  void retryExactlyOneFailedJobWhileAnotherStaysFailed() {
    fixture.clientB.createQueue("reports");
    List<JobDescriptor> jobs =
        fixture.clientB.enqueue(
            "reports",
            List.of(
                NewJob.of("report a").withAttemptsAllowed(1),
                NewJob.of("report b").withAttemptsAllowed(1)));
    fixture.clientB.ack(
        new AckParams(
            "reports",
            List.of(),
            fixture.clientB.dequeue("reports", 2).stream()
                .map(j -> AckParams.Item.of(j.descriptor()))
                .toList()));
    JobDescriptor chosen = jobs.get(0);
    JobDescriptor other = jobs.get(1);

    open("/queues");
    chrome.findElement(By.id("lookup-descriptor")).sendKeys(chosen.toString());
    chrome.findElement(By.id("lookup")).click();
    wait.until(ExpectedConditions.textToBe(By.id("job-state"), "FAILED"));
    chrome.findElement(By.id("action-retry-job")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("confirm-question"), "Retry job " + chosen + " (FAILED)?"));
    assertThat(state(chosen)).as("asking changes nothing").isEqualTo(JobState.FAILED);
    HeadlessChromium.screenshot(chrome, "queue-retry-job-confirm");
    chrome.findElement(By.id("confirm")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("result"), "job " + chosen + ": FAILED → PENDING"));
    HeadlessChromium.screenshot(chrome, "queue-retry-job-done");

    chrome.findElement(By.cssSelector("nav.crumbs a")).click();
    wait.until(ExpectedConditions.textToBe(By.id("job-state"), "PENDING"));
    assertThat(chrome.findElements(By.id("action-retry-job")))
        .as("only failed jobs offer it")
        .isEmpty();
    assertThat(state(chosen)).isEqualTo(JobState.PENDING);
    assertThat(state(other)).isEqualTo(JobState.FAILED);
    assertThat(fixture.clientB.count(CountParams.of("reports", JobState.FAILED))).isEqualTo(1);
  }

  private static JobState state(JobDescriptor job) {
    return fixture.clientB.lookup(List.of(job), false).get(job).state();
  }
}
