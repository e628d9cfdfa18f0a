package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.engine.ExecutionResult;
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
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The UI in a real headless Chromium: the workflows list, a workflow, an instance with its job
 * graph, a job and its log; names, properties and log lines holding {@code <script>} stay text; a
 * page follows the master without reloading; an action is clicked, confirmed and its effect seen.
 * Screenshots go to target/screenshots/. The last two tests change the running instance.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("browser")
class UiBrowserTest {
  private static UiFixture fixture;
  private static ChromeDriver chrome;
  private static WebDriverWait wait;

  @BeforeAll
  static void start() {
    fixture = new UiFixture().seed();
    chrome = HeadlessChromium.start();
    wait = new WebDriverWait(chrome, Duration.ofSeconds(20));
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

  private static void waitForGraph() {
    wait.until(ExpectedConditions.attributeToBe(By.id("graph"), "data-ready", "true"));
  }

  @Test
  @Order(1)
  void workflowsListLeadsToTheWorkflowWithItsGraphAndYaml() {
    open("/");
    WebElement row =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-workflow=etl]")));
    assertThat(row.getText())
        .contains("etl", "data-team, alice", "every 1h", "RUNNING", "100% of 1");
    HeadlessChromium.screenshot(chrome, "workflows");

    row.findElement(By.linkText("etl")).click();
    waitForGraph();
    assertThat(chrome.findElement(By.id("runs-table")).getText())
        .contains(fixture.running, fixture.finished);
    assertThat(chrome.findElement(By.id("yaml")).getText()).contains("workflow: etl");
    assertThat(script("return window.flipper.graph.nodes().length")).isEqualTo(4L);
    HeadlessChromium.screenshot(chrome, "workflow");
  }

  @Test
  @Order(2)
  void instanceGraphIsColouredByStatusAndAJobOpensOnClick() {
    open("/workflows/etl/instances/" + fixture.running);
    waitForGraph();
    @SuppressWarnings("unchecked")
    List<String> nodes =
        (List<String>)
            script(
                "return window.flipper.graph.nodes().map(n => n.id() + ' ' + n.data('status') + ' '"
                    + " + n.style('background-color'))");
    // the graph takes its colours from the status badges' (ui.css), so both agree in either theme
    assertThat(nodes)
        .contains(
            "extract SUCCESS " + badgeColour("success"),
            "transform RUNNING " + badgeColour("running"),
            "load WAITING " + badgeColour("waiting"),
            UiFixture.XSS_JOB + " WAITING " + badgeColour("waiting"));
    assertThat(badgeColour("success")).isNotEqualTo(badgeColour("running"));
    // dagre ranks the jobs top to bottom at a readable zoom (its fallback spreads them over the
    // whole box)
    assertThat(
            script(
                "return ['extract', 'transform', 'load'].map(j => window.flipper.graph.getElementById(j)"
                    + ".position('y')).every((y, i, ys) => i === 0 || ys[i - 1] < y)"))
        .isEqualTo(true);
    assertThat(((Number) script("return window.flipper.graph.zoom()")).doubleValue())
        .isGreaterThanOrEqualTo(1.0);
    assertThat(chrome.findElement(By.id("jobs-table")).getText()).contains(UiFixture.XSS_JOB);
    assertThat(script("return typeof window.xssJob")).isEqualTo("undefined");
    assertThat(chrome.findElements(By.cssSelector("#timeline .tl-bar.tl-status-running")))
        .hasSize(1);
    HeadlessChromium.screenshot(chrome, "instance");

    // A click selects the job for the action bar (UiActionBarBrowserTest); a double click opens it.
    script("window.flipper.graph.getElementById('extract').emit('dbltap')");
    wait.until(ExpectedConditions.urlContains("/jobs/extract"));
    assertThat(chrome.findElement(By.id("job-name")).getText()).isEqualTo("extract");
  }

  /** The background of the legend's badge of a status, as Cytoscape writes colours. */
  private static String badgeColour(String statusClass) {
    return ((String)
            script(
                "return getComputedStyle(document.querySelector('#graph-legend .status."
                    + statusClass
                    + "')).backgroundColor"))
        .replace(" ", "");
  }

  @Test
  @Order(3)
  void finishedInstanceShowsEveryAttemptOnTheTimeline() {
    open("/workflows/etl/instances/" + fixture.finished);
    waitForGraph();
    assertThat(chrome.findElements(By.cssSelector("#timeline .tl-bar.tl-status-success")))
        .hasSize(4);
    assertThat(chrome.findElements(By.cssSelector("#timeline .tl-bar.tl-status-failure")))
        .hasSize(1);
    assertThat(
            script(
                "return [...document.querySelectorAll('#timeline .tl-bar')]"
                    + ".every(b => b.style.width.endsWith('%') && b.style.left.endsWith('%'))"))
        .as("every bar placed from its data-left and data-width")
        .isEqualTo(true);
    HeadlessChromium.screenshot(chrome, "instance-finished");
  }

  @Test
  @Order(4)
  void jobShowsExecutionsWithPropertiesAsTextAndItsLog() {
    open("/workflows/etl/instances/" + fixture.finished + "/jobs/report");
    WebElement first = chrome.findElement(By.cssSelector("tr[data-execution='1']"));
    assertThat(first.getText()).contains(UiFixture.XSS_PROPERTY, "javascript:alert(1)", "worker-1");
    assertThat(first.findElements(By.cssSelector("a[href^='javascript']"))).isEmpty();
    assertThat(script("return typeof window.xssProperty")).isEqualTo("undefined");
    HeadlessChromium.screenshot(chrome, "job");

    first.findElement(By.linkText("stdout")).click();
    wait.until(ExpectedConditions.attributeToBe(By.id("log"), "data-state", "complete"));
    assertThat(chrome.findElement(By.id("log")).getText())
        .isEqualTo("running report\n" + UiFixture.XSS_LOG + "\ndone");
    assertThat(script("return typeof window.xssLog")).isEqualTo("undefined");
    HeadlessChromium.screenshot(chrome, "log");
  }

  @Test
  @Order(5)
  void logOfARunningJobIsFollowed() {
    open(
        "/workflows/etl/instances/" + fixture.running + "/jobs/transform/executions/1/logs/stdout");
    wait.until(ExpectedConditions.attributeToBe(By.id("log"), "data-state", "following"));
    fixture.append(fixture.running, "transform", 1, "stdout", "wrote 42 rows\n");
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("log"), "wrote 42 rows"));
    assertThat(chrome.findElement(By.id("log")).getText())
        .isEqualTo("reading events\nwrote 42 rows");
    HeadlessChromium.screenshot(chrome, "log-following");
  }

  @Test
  @Order(6)
  void tokenBrowserDrillsDownToAToken() {
    open("/tokens?path=/");
    chrome.findElement(By.linkText("/definition/")).click();
    chrome.findElement(By.linkText("/definition/etl")).click();
    assertThat(chrome.findElement(By.id("token-name")).getText()).isEqualTo("/definition/etl");
    assertThat(chrome.findElement(By.id("token-data")).getText()).contains("\"yaml\"");
    HeadlessChromium.screenshot(chrome, "token");
  }

  @Test
  @Order(7)
  void instancePageFollowsTheMasterWithoutReloading() {
    open("/workflows/etl/instances/" + fixture.running);
    waitForGraph();
    script("window.notReloaded = true");
    // what a refresh must keep: the rows (not rebuilt), the focused link, the page's scroll
    // position
    script(
        "window.transformRow = document.querySelector('tr[data-job=transform]');"
            + " document.querySelector('tr[data-job=extract] a').focus();"
            + " window.scrollTo({ top: 200, behavior: 'instant' })");
    Object scrolled = script("return window.scrollY");

    fixture.engine.finish(fixture.runningJob, ExecutionResult.exit(0));

    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.cssSelector("tr[data-job=transform]"), "SUCCESS"));
    wait.until(
        d ->
            "SUCCESS"
                .equals(
                    script(
                        "return window.flipper.graph.getElementById('transform').data('status')")));
    assertThat(script("return window.notReloaded")).isEqualTo(true);
    assertThat(
            script(
                "return window.transformRow === document.querySelector('tr[data-job=transform]')"))
        .as("the row updated in place")
        .isEqualTo(true);
    assertThat(script("return document.activeElement.textContent")).isEqualTo("extract");
    assertThat(script("return window.scrollY")).isEqualTo(scrolled);
    HeadlessChromium.screenshot(chrome, "instance-refreshed");
  }

  @Test
  @Order(8)
  void pauseAndAbortRunAfterTheirConfirmation() {
    open("/workflows/etl/instances/" + fixture.running);
    waitForGraph();
    script("window.flipper.selectWithDependents('transform')");
    assertThat(
            chrome.findElements(By.cssSelector("input.job-pick:checked")).stream()
                .map(box -> box.getAttribute("value")))
        .as("transform with what is downstream of it")
        .containsExactlyInAnyOrder("transform", "load", UiFixture.XSS_JOB);
    chrome.findElement(By.id("action-pause")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("preview-changes"), "nothing new starts"));
    chrome.findElement(By.id("confirm")).click();

    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "PAUSE signal set"));
    HeadlessChromium.screenshot(chrome, "action-pause");
    chrome.findElement(By.cssSelector("nav.crumbs a")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("banner"), "PAUSE"));

    chrome.findElement(By.id("action-abort")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("confirm-question"), "abort etl/" + fixture.running + "?"));
    HeadlessChromium.screenshot(chrome, "action-abort-confirm");
    chrome.findElement(By.id("confirm")).click();

    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "ABORT"));
    HeadlessChromium.screenshot(chrome, "action-abort-done");
    chrome.findElement(By.cssSelector("nav.crumbs a")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("instance-status"), "ABORTED"));
    HeadlessChromium.screenshot(chrome, "instance-aborted");
  }

  @Test
  @Order(9)
  void mainPagesReportNoContentSecurityPolicyViolation() {
    chrome.manage().logs().get(LogType.BROWSER); // drops what earlier tests logged
    String job = "/workflows/etl/instances/" + fixture.finished + "/jobs/report";
    for (String path :
        List.of(
            "/",
            "/workflows/etl",
            "/workflows/etl/instances/" + fixture.finished,
            job,
            job + "/executions/1/logs/stdout",
            "/schedules",
            "/workers",
            "/tokens?path=/",
            "/queues",
            "/login")) {
      open(path);
      wait.until(d -> "complete".equals(script("return document.readyState")));
      if (path.contains("/instances/") && !path.contains("/jobs/")) {
        waitForGraph();
      }
      assertThat(violations()).as(path).isEmpty();
    }

    script("document.body.setAttribute('style', 'color: red')");
    assertThat(violations()).as("the console does report a violation").isNotEmpty();
  }

  /** The browser console's Content-Security-Policy complaints since the last call. */
  private static List<String> violations() {
    return chrome.manage().logs().get(LogType.BROWSER).getAll().stream()
        .map(LogEntry::getMessage)
        .filter(m -> m.contains("Content Security Policy"))
        .toList();
  }

  /**
   * Issue #26: the viewer showed only the last 256 KiB of a long log and then overwrote its own
   * notice with "complete". What is not shown, and what the worker cut, is said above the log now.
   */
  @Test
  @Order(10)
  void whatTheViewerDoesNotShowAndWhatTheWorkerCutIsSaidAboveTheLog() {
    String at = "http://127.0.0.1:" + fixture.logServer.port() + "/logs/";
    String instance =
        fixture.runningWithLogs(
            java.util.Map.of("stdout", at + "etl/long.stdout", "stderr", at + "etl/capped.stderr"));
    StringBuilder longLog = new StringBuilder();
    for (int i = 1; i <= 50_000; i++) {
      longLog.append(String.format("line %06d\n", i));
    }
    fixture.logs.put("etl/long.stdout", longLog.toString());
    fixture.logs.put(
        "etl/capped.stderr",
        "begin\n--- flipper: 123,456 bytes cut here (workers.maxLogBytes = 64 KiB) ---\nend\n");
    String page = "/workflows/etl/instances/" + instance + "/jobs/extract/executions/1/logs/";

    open(page + "stdout");
    wait.until(ExpectedConditions.attributeToBe(By.id("log"), "data-state", "following"));
    WebElement partial = chrome.findElement(By.id("log-partial"));
    assertThat(partial.isDisplayed()).isTrue();
    assertThat(partial.getText())
        .contains("Showing only the end of this log (600000 bytes): its first 337856 bytes")
        .contains("Download the whole log");
    assertThat(partial.getLocation().getY())
        .isLessThan(chrome.findElement(By.id("log")).getLocation().getY());
    HeadlessChromium.screenshot(chrome, "log-partial");
    chrome.findElement(By.id("show-start")).click();
    wait.until(ExpectedConditions.attributeToBe(By.id("log"), "data-head", "shown"));
    assertThat(chrome.findElement(By.id("log")).getText())
        .startsWith("line 000001\nline 000002\n")
        .contains("[… 75712 bytes not shown …]")
        .endsWith("line 050000");
    assertThat(partial.getText())
        .contains(
            "Showing the start and the end of this log (600000 bytes): bytes 262144 to 337856 are not shown.");

    open(page + "stderr");
    WebElement cut = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("log-cut")));
    assertThat(cut.getText())
        .contains("123,456 bytes were cut")
        .contains("(workers.maxLogBytes = 64 KiB)");
    assertThat(cut.getLocation().getY())
        .isLessThan(chrome.findElement(By.id("log")).getLocation().getY());
    assertThat(chrome.findElement(By.id("log-partial")).isDisplayed()).isFalse();
    HeadlessChromium.screenshot(chrome, "log-cut");
  }
}
