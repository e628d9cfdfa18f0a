package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The run history in a real headless Chromium: an archived instance stays reachable, the grid shows
 * 25 runs × 10 jobs in the right colours, the filter form returns exactly the matching runs, a
 * job's history spans its runs. Screenshots of every page go to target/screenshots/
 * (history-*.png).
 */
@Tag("browser")
class UiHistoryBrowserTest {
  private static HistoryFixture fixture;
  private static ChromeDriver chrome;
  private static WebDriverWait wait;

  @BeforeAll
  static void start() {
    fixture = new HistoryFixture().seed();
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

  private static WebElement waitFor(By by) {
    return wait.until(ExpectedConditions.presenceOfElementLocated(by));
  }

  private static List<String> rows(String table, String attribute) {
    List<String> values = new ArrayList<>();
    chrome
        .findElements(By.cssSelector("#" + table + " tbody tr"))
        .forEach(r -> values.add(r.getAttribute(attribute)));
    return values;
  }

  /** No Content-Security-Policy violation in the console since the last call. */
  private static void assertNoCspViolations() {
    assertThat(
            chrome.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(m -> m.contains("Content Security Policy")))
        .isEmpty();
  }

  @Test
  void anArchivedInstanceIsReachableFromTheWorkflowPageAndAtItsOldUrl() {
    open("/workflows/etl");
    WebElement row = waitFor(By.cssSelector("#runs-table tr[data-run='" + fixture.first + "']"));
    assertThat(rows("runs-table", "data-run"))
        .containsExactly(fixture.third, fixture.second, fixture.first);
    assertThat(row.getText()).contains("SUCCESS", fixture.first);
    HeadlessChromium.screenshot(chrome, "history-workflow-runs");
    assertNoCspViolations();

    row.findElement(By.linkText(fixture.first)).click();
    WebElement badge = waitFor(By.id("archived-badge"));
    assertThat(badge.getText()).isEqualToIgnoringCase("archived");
    assertThat(chrome.getCurrentUrl()).endsWith("/workflows/etl/instances/" + fixture.first);
    assertThat(chrome.findElement(By.id("instance-status")).getText()).isEqualTo("SUCCESS");
    assertThat(chrome.findElements(By.id("action-pause"))).isEmpty();
    assertThat(chrome.findElements(By.id("action-retry"))).isEmpty(); // it succeeded
    wait.until(ExpectedConditions.attributeToBe(By.id("graph"), "data-ready", "true"));
    HeadlessChromium.screenshot(chrome, "history-archived-instance");

    open("/workflows/etl/instances/" + fixture.second + "/jobs/transform");
    waitFor(By.id("archived-badge"));
    assertThat(rows("executions-table", "data-execution")).containsExactly("1", "2");
    HeadlessChromium.screenshot(chrome, "history-archived-job");
    assertNoCspViolations();
  }

  @Test
  void theGridShows25RunsBy10JobsInTheirStatusColours() {
    open("/workflows/nightly/grid?runs=25");
    waitFor(By.id("run-grid"));

    List<WebElement> heads = chrome.findElements(By.cssSelector("#run-grid thead th.grid-run"));
    assertThat(heads).hasSize(25);
    assertThat(heads.get(0).getAttribute("data-run")).isEqualTo(HistoryFixture.nightlyInstance(5));
    assertThat(heads.get(24).getAttribute("data-run"))
        .isEqualTo(HistoryFixture.nightlyInstance(29));
    List<WebElement> jobRows = chrome.findElements(By.cssSelector("#run-grid tbody tr"));
    assertThat(jobRows)
        .extracting(r -> r.getAttribute("data-job"))
        .isEqualTo(HistoryFixture.NIGHTLY_JOBS);

    Map<String, String> colourOf = new HashMap<>();
    for (String status : List.of("SUCCESS", "FAILURE")) {
      colourOf.put(
          status,
          chrome
              .findElement(By.cssSelector(".cell-legend .cell." + status.toLowerCase()))
              .getCssValue("background-color"));
    }
    assertThat(colourOf.get("SUCCESS")).isNotEqualTo(colourOf.get("FAILURE"));
    int failures = 0;
    for (int k = 0; k < 10; k++) {
      List<WebElement> cells = jobRows.get(k).findElements(By.cssSelector("td.grid-cell"));
      assertThat(cells).hasSize(25);
      for (int c = 0; c < 25; c++) {
        int run = c + 5;
        WebElement cell = cells.get(c);
        if (!HistoryFixture.ran(run, k)) {
          assertThat(cell.findElements(By.tagName("a"))).as("job %d run %d", k, run).isEmpty();
          continue;
        }
        String status = HistoryFixture.fails(run, k) ? "FAILURE" : "SUCCESS";
        failures += status.equals("FAILURE") ? 1 : 0;
        WebElement link = cell.findElement(By.tagName("a"));
        assertThat(cell.getAttribute("data-status")).isEqualTo(status);
        assertThat(link.getCssValue("background-color"))
            .as("job %d run %d", k, run)
            .isEqualTo(colourOf.get(status));
        boolean twice = HistoryFixture.twice(run, k);
        assertThat(link.getAttribute("aria-label"))
            .isEqualTo(
                "job "
                    + HistoryFixture.NIGHTLY_JOBS.get(k)
                    + " in run "
                    + HistoryFixture.nightlyInstance(run)
                    + ": "
                    + status
                    + (twice ? " after 2 attempts" : ""));
        assertThat(link.getText())
            .isEqualTo((twice ? "2" : "") + (status.equals("FAILURE") ? "✕" : ""));
      }
    }
    assertThat(failures).isPositive();
    assertThat(chrome.findElements(By.cssSelector("#run-chart rect.run-bar"))).hasSize(25);
    assertThat(chrome.findElements(By.cssSelector("#run-chart rect.run-bar.failure")))
        .hasSameSizeAs(chrome.findElements(By.cssSelector("#run-chart .run-bar-mark")));
    HeadlessChromium.screenshot(chrome, "history-grid");
    assertNoCspViolations();

    WebElement someCell = jobRows.get(0).findElement(By.cssSelector("td.grid-cell a"));
    String href = someCell.getAttribute("href");
    assertThat(href).contains("/jobs/fetch/executions/").endsWith("/logs/stdout");
  }

  @Test
  void theFilterFormReturnsExactlyTheFailedRunsOfADateRange() {
    open("/workflows/filtered");
    waitFor(By.id("runs-table"));
    assertThat(chrome.findElement(By.cssSelector(".pager-count")).getText())
        .isEqualTo("1–30 of 30");

    chrome.findElement(By.cssSelector("#runs-filter input[name=status][value=FAILURE]")).click();
    chrome.findElement(By.id("filter-from")).sendKeys("2026-11-02");
    chrome.findElement(By.id("filter-to")).sendKeys("2026-11-02");
    chrome.findElement(By.id("filter-apply")).click();
    wait.until(ExpectedConditions.urlContains("status=FAILURE"));
    waitFor(By.id("runs-table"));

    assertThat(rows("runs-table", "data-run"))
        .containsExactly(
            HistoryFixture.filteredInstance(2, 9),
            HistoryFixture.filteredInstance(2, 6),
            HistoryFixture.filteredInstance(2, 3),
            HistoryFixture.filteredInstance(2, 0));
    assertThat(rows("runs-table", "data-status")).containsOnly("FAILURE");
    assertThat(chrome.findElement(By.cssSelector(".pager-count")).getText()).isEqualTo("1–4 of 4");
    assertThat(chrome.findElement(By.id("filter-from")).getAttribute("value"))
        .isEqualTo("2026-11-02");
    HeadlessChromium.screenshot(chrome, "history-runs-filtered");

    chrome.findElement(By.id("sort-start")).click();
    wait.until(ExpectedConditions.urlContains("sort=oldest"));
    assertThat(rows("runs-table", "data-run"))
        .containsExactly(
            HistoryFixture.filteredInstance(2, 0),
            HistoryFixture.filteredInstance(2, 3),
            HistoryFixture.filteredInstance(2, 6),
            HistoryFixture.filteredInstance(2, 9));
    assertNoCspViolations();
  }

  @Test
  void theJobHistoryListsTheExecutionsOfAJobAcrossThreeRuns() {
    open("/workflows/etl/instances/" + fixture.third);
    waitFor(By.id("jobs-table"))
        .findElement(By.cssSelector("tr[data-job=transform] a.history-link"))
        .click();
    waitFor(By.id("job-history-table"));

    assertThat(rows("job-history-table", "data-run"))
        .containsExactly(fixture.third, fixture.second, fixture.second, fixture.first);
    assertThat(rows("job-history-table", "data-status"))
        .containsExactly("RUNNING", "SUCCESS", "FAILURE", "SUCCESS");
    assertThat(rows("job-history-table", "data-execution")).containsExactly("1", "2", "1", "1");
    assertThat(chrome.findElement(By.id("job-history-table")).getText()).contains("host-1");
    assertThat(chrome.findElements(By.cssSelector("#job-history-table a.log-link"))).hasSize(4);
    HeadlessChromium.screenshot(chrome, "history-job");

    chrome.findElement(By.cssSelector("#executions-filter input[value=FAILURE]")).click();
    chrome.findElement(By.id("filter-apply")).click();
    wait.until(ExpectedConditions.urlContains("status=FAILURE"));
    assertThat(rows("job-history-table", "data-run")).containsExactly(fixture.second);
    assertNoCspViolations();
  }

  @Test
  void theOverviewShowsEachWorkflowsLatestRunEvenArchived() {
    open("/");
    WebElement filtered = waitFor(By.cssSelector("tr[data-workflow=filtered]"));
    // its latest run (2026-11-03 10:09, archived) failed; older ones succeeded
    assertThat(filtered.findElement(By.cssSelector(".status")).getText()).isEqualTo("FAILURE");
    assertThat(filtered.findElement(By.cssSelector("a[href*='/instances/']")).getAttribute("href"))
        .endsWith("/workflows/filtered/instances/" + HistoryFixture.filteredInstance(3, 9));
    HeadlessChromium.screenshot(chrome, "history-workflows");
  }
}
