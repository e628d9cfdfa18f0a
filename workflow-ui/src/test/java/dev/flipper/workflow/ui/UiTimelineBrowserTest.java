package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.WorkflowEngine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue #32: the instance page's timeline in a real headless Chromium. Workflow {@code nightly} is
 * a diamond (extract, then clean and enrich, then report; archive on the side) whose {@code clean}
 * fails once and succeeds on its retry. Its jobs run through the engine on a clock the test moves,
 * so the executions have the lengths of a real run: one instance finished half an hour ago with the
 * retry on the critical path, one still runs {@code enrich}. Screenshots go to target/screenshots/.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("browser")
class UiTimelineBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static UiFixture fixture;
  private static ChromeDriver chrome;
  private static WebDriverWait wait;
  private static WorkflowEngine engine;
  private static MovableClock clock;
  private static String finished;
  private static String running;

  @BeforeAll
  static void start() {
    fixture = new UiFixture().seed(); // the log stand-in is a known worker's (its heartbeat)
    clock = new MovableClock(Instant.now().minus(30, ChronoUnit.MINUTES));
    engine = WorkflowEngine.builder(fixture.client).clock(clock).build();
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("nightly")
                    .job(JobDefinition.builder("extract").command("./extract.sh"))
                    .job(
                        JobDefinition.builder("clean")
                            .needs("extract")
                            .command("./clean.sh")
                            .maxAttempts(3))
                    .job(JobDefinition.builder("enrich").needs("extract").command("./enrich.sh"))
                    .job(JobDefinition.builder("archive").needs("extract").command("./archive.sh"))
                    .job(
                        JobDefinition.builder("report")
                            .needs("clean", "enrich")
                            .command("./report.sh"))
                    .build()));
    finished = runWithLateRetry();
    running = runStillEnriching();
    chrome = HeadlessChromium.start();
    wait = new WebDriverWait(chrome, Duration.ofSeconds(20));
  }

  /** Half an hour ago: clean fails at 52 s, runs again from 60 s to 100 s; report waits for it. */
  private static String runWithLateRetry() {
    String instance = engine.instances().start("nightly");
    ClaimedJob extract = begin(instance, "extract");
    end(extract, 40, 0);
    ClaimedJob clean = begin(instance, "clean");
    ClaimedJob enrich = begin(instance, "enrich");
    ClaimedJob archive = begin(instance, "archive");
    end(clean, 12, 1);
    end(archive, 3, 0);
    clock.advance(5);
    ClaimedJob retry = begin(instance, "clean");
    end(enrich, 30, 0);
    end(retry, 10, 0);
    ClaimedJob report = begin(instance, "report");
    end(report, 30, 0);
    return instance;
  }

  /** Three minutes ago: clean's retry is quick, enrich still runs: it is the critical path. */
  private static String runStillEnriching() {
    clock.set(Instant.now().minus(3, ChronoUnit.MINUTES));
    String instance = engine.instances().start("nightly");
    end(begin(instance, "extract"), 20, 0);
    ClaimedJob clean = begin(instance, "clean");
    begin(instance, "enrich");
    ClaimedJob archive = begin(instance, "archive");
    end(clean, 5, 2);
    clock.advance(5);
    end(begin(instance, "clean"), 20, 0);
    end(archive, 5, 0);
    return instance;
  }

  /** Claims the job (handing back the others it gets) and starts it now, logs at the stand-in. */
  private static ClaimedJob begin(String instance, String job) {
    List<ClaimedJob> others = new ArrayList<>();
    try {
      while (true) {
        ClaimedJob claimed =
            engine
                .claim("worker-1", Duration.ofHours(2))
                .orElseThrow(() -> new IllegalStateException("cannot claim " + job));
        if (claimed.instance().equals(instance) && claimed.job().equals(job)) {
          String log = "nightly/" + instance + "/" + job + "." + claimed.execution() + ".stdout";
          fixture.logs.put(log, "running " + job + " (execution " + claimed.execution() + ")\n");
          String url = "http://127.0.0.1:" + fixture.logServer.port() + "/logs/" + log;
          engine.start(
              claimed, new ExecutionStart(claimed.command(), "host-1", Map.of("stdout", url)));
          return claimed;
        }
        others.add(claimed);
      }
    } finally {
      others.forEach(engine::release);
    }
  }

  /** Lets {@code seconds} pass, then the job exits with {@code exit}. */
  private static void end(ClaimedJob job, long seconds, int exit) {
    clock.advance(seconds);
    engine.finish(job, ExecutionResult.exit(exit));
  }

  @AfterAll
  static void stop() {
    if (chrome != null) {
      chrome.quit();
    }
    fixture.close();
  }

  private static void openInstance(String instance) {
    chrome.get(fixture.base() + "/workflows/nightly/instances/" + instance);
    wait.until(
        ExpectedConditions.presenceOfElementLocated(By.cssSelector("#timeline .tl-bar[style]")));
    chrome.executeScript("document.getElementById('timeline').scrollIntoView({block: 'center'})");
  }

  private static List<String> texts(String css) {
    return chrome.findElements(By.cssSelector(css)).stream()
        .map(e -> e.getAttribute("textContent").strip())
        .toList();
  }

  private static WebElement bar(String job, int execution) {
    return chrome.findElement(
        By.cssSelector("#timeline .tl-bar[data-key='" + job + "#" + execution + "']"));
  }

  private static WebElement tipOf(WebElement bar) {
    return chrome.findElement(By.id(bar.getAttribute("aria-describedby")));
  }

  @Test
  @Order(1)
  void axisIsMarkedFromTheStartOfTheRunWithTheEndsInUtc() {
    openInstance(finished);

    assertThat(texts("#timeline .tl-tick"))
        .containsExactly(
            "+0s", "+15s", "+30s", "+45s", "+1m", "+1m 15s", "+1m 30s", "+1m 45s", "+2m");
    assertThat(chrome.findElement(By.cssSelector("#timeline .tl-start")).getText())
        .matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC");
    assertThat(chrome.findElement(By.cssSelector("#timeline .tl-end")).getText()).endsWith("UTC");
    assertThat(chrome.findElements(By.cssSelector("#timeline .tl-now")))
        .as("a finished run has no now")
        .isEmpty();
    // Every row in job order; a tick's line lies where its label is.
    assertThat(texts("#timeline .tl-job"))
        .containsExactly("extract", "archive", "clean", "enrich", "report");
    assertThat(
            chrome.executeScript(
                "const t = document.querySelectorAll('#timeline .tl-tick')[4].getBoundingClientRect();"
                    + " const l = document.querySelectorAll('#timeline .tl-line')[4].getBoundingClientRect();"
                    + " return Math.abs((t.left + t.right) / 2 - l.left) < 2"))
        .isEqualTo(true);
  }

  @Test
  @Order(2)
  void retriedJobHasOneBarPerAttemptPlacedAtItsTimes() {
    openInstance(finished);

    List<WebElement> bars =
        chrome.findElements(By.cssSelector("#timeline .tl-row[data-job=clean] .tl-bar"));
    assertThat(bars).hasSize(2);
    assertThat(bars.get(0).getAttribute("class")).contains("tl-status-failure");
    assertThat(bars.get(1).getAttribute("class")).contains("tl-status-success");
    assertThat(bars.get(0).getAttribute("aria-label"))
        .isEqualTo("clean attempt 1: FAILURE, 12s, exit 1, on the critical path");
    assertThat(bars.get(1).getAttribute("aria-label"))
        .isEqualTo("clean attempt 2: SUCCESS, 40s, exit 0, on the critical path");
    // 40 s to 52 s and 60 s to 100 s of 130 s: the gap before the retry shows.
    int firstEnd = bars.get(0).getRect().getX() + bars.get(0).getRect().getWidth();
    assertThat(bars.get(1).getRect().getX()).isGreaterThan(firstEnd + 10);
    WebElement track =
        chrome.findElement(By.cssSelector("#timeline .tl-row[data-job=clean] .tl-track"));
    double percent =
        100.0
            * (bars.get(0).getRect().getX() - track.getRect().getX())
            / track.getRect().getWidth();
    assertThat(percent).isCloseTo(100.0 * 40 / 130, offset(0.5));
  }

  @Test
  @Order(3)
  void hoveringABarShowsItsDetails() {
    openInstance(finished);
    WebElement failed = bar("clean", 1);
    WebElement tip = tipOf(failed);
    assertThat(tip.isDisplayed()).isFalse();

    new Actions(chrome).moveToElement(failed).perform();

    wait.until(ExpectedConditions.visibilityOf(tip));
    assertThat(tip.getText())
        .contains("clean · attempt 1", "FAILURE", "exit 1", "12s", "worker-1 on host-1")
        .contains("On the critical path", "Click to open its log");
    HeadlessChromium.screenshot(chrome, "timeline-hover");
    new Actions(chrome)
        .moveToElement(chrome.findElement(By.cssSelector("#timeline .tl-corner")))
        .perform();
    wait.until(ExpectedConditions.invisibilityOf(tip));
  }

  @Test
  @Order(4)
  void aBarTakesTheKeyboardFocusShowsItsDetailsAndEscapeHidesThem() {
    openInstance(finished);
    chrome
        .findElement(By.cssSelector("#timeline .tl-row[data-job=enrich] .tl-job"))
        .sendKeys(Keys.TAB);

    WebElement focused = chrome.switchTo().activeElement();
    assertThat(focused.getAttribute("data-key")).isEqualTo("enrich#1");
    WebElement tip = tipOf(focused);
    wait.until(ExpectedConditions.visibilityOf(tip));
    assertThat(tip.getText()).contains("enrich · attempt 1", "SUCCESS", "50s");
    assertThat(tip.getText()).doesNotContain("critical path");
    HeadlessChromium.screenshot(chrome, "timeline-focus");

    focused.sendKeys(Keys.ESCAPE);
    wait.until(ExpectedConditions.invisibilityOf(tip));
  }

  @Test
  @Order(5)
  void criticalPathIsTheChainThatEndedTheRun() throws Exception {
    openInstance(finished);

    assertThat(
            chrome.findElements(By.cssSelector("#timeline .tl-row.tl-critical")).stream()
                .map(r -> r.getAttribute("data-job")))
        .containsExactly("extract", "clean", "report");
    assertThat(chrome.findElements(By.cssSelector("#timeline .tl-bar.tl-critical")))
        .as("extract, both attempts of clean, report")
        .hasSize(4);
    assertThat(
            chrome
                .findElement(By.cssSelector(".tl-row[data-job=clean] .tl-job"))
                .getCssValue("font-weight"))
        .isEqualTo("700");
    assertThat(chrome.findElement(By.id("timeline-legend")).getText()).contains("critical path");

    JsonNode timeline = api("/api/workflows/nightly/instances/" + finished).get("timeline");
    assertThat(timeline.get("criticalPath").toString())
        .isEqualTo("[\"extract\",\"clean\",\"report\"]");
    assertThat(timeline.get("ticks").size()).isEqualTo(9);
    assertThat(timeline.get("rows").get(2).get("bars").get(1).get("exitCode").asInt()).isZero();
  }

  @Test
  @Order(6)
  void runningInstanceShowsNowAndItsRunningJobEndsThePath() {
    openInstance(running);

    assertThat(chrome.findElements(By.cssSelector("#timeline .tl-now"))).hasSize(1);
    assertThat(chrome.findElement(By.cssSelector("#timeline .tl-end")).getText()).startsWith("now");
    assertThat(
            chrome.findElements(By.cssSelector("#timeline .tl-row.tl-critical")).stream()
                .map(r -> r.getAttribute("data-job")))
        .containsExactly("extract", "enrich");
    assertThat(bar("enrich", 1).getAttribute("class")).contains("tl-status-running");
    assertThat(chrome.findElements(By.cssSelector("#timeline .tl-row[data-job=clean] .tl-bar")))
        .hasSize(2)
        .noneMatch(b -> b.getAttribute("class").contains("tl-critical"));
    assertThat(chrome.findElements(By.cssSelector("#timeline .tl-row[data-job=report] .tl-bar")))
        .isEmpty();
    new Actions(chrome).moveToElement(bar("clean", 1)).perform();
    wait.until(ExpectedConditions.visibilityOf(tipOf(bar("clean", 1))));
    HeadlessChromium.screenshot(chrome, "timeline-running");
  }

  @Test
  @Order(7)
  void focusedBarKeepsTheFocusWhenTheRefreshReplacesTheTimeline() {
    openInstance(running); // its running execution changes the page's data at every poll
    new Actions(chrome)
        .moveToElement(chrome.findElement(By.cssSelector("#timeline .tl-corner")))
        .perform();
    chrome
        .findElement(By.cssSelector("#timeline .tl-row[data-job=enrich] .tl-job"))
        .sendKeys(Keys.TAB);
    chrome.executeScript(
        "window.refreshes = 0;"
            + " document.addEventListener('flipper:data', function () { window.refreshes++; })");

    // a refresh updates the timeline in place (ui.js): wait for two with changed data
    wait.until(d -> ((Number) chrome.executeScript("return window.refreshes")).intValue() >= 2);

    WebElement focused = chrome.switchTo().activeElement();
    assertThat(focused.getAttribute("data-key")).isEqualTo("enrich#1");
    assertThat(tipOf(focused).isDisplayed()).isTrue();
  }

  @Test
  @Order(8)
  void clickOnABarOpensThatExecutionsLog() {
    chrome.manage().logs().get(LogType.BROWSER); // drops what earlier pages logged
    openInstance(finished);

    bar("clean", 1).click();

    wait.until(ExpectedConditions.urlContains("/jobs/clean/executions/1/logs/stdout"));
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("log"), "running clean (execution 1)"));
    assertThat(
            chrome.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(m -> m.contains("Content Security Policy")))
        .as("the instance page and its timeline break no Content-Security-Policy rule")
        .isEmpty();
  }

  private static JsonNode api(String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /** The engine's clock: stands still until the test moves it. */
  private static final class MovableClock extends Clock {
    private volatile Instant now;

    MovableClock(Instant start) {
      now = start;
    }

    void advance(long seconds) {
      now = now.plusSeconds(seconds);
    }

    void set(Instant instant) {
      now = instant;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the test's clock is UTC");
    }
  }
}
