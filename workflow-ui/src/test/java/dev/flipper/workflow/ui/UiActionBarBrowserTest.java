package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The instance page's action bar and the workflow page's start form in real headless Chromium: jobs
 * selected by checkbox and by a click in the graph, the actions' enabled states and reasons, the
 * retry confirmation listing exactly the jobs it reruns, and a run started with parameters.
 */
@Tag("browser")
class UiActionBarBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
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

  @Test
  void selectedJobsSetTheBarAndRetryConfirmsExactlyTheJobsItReruns() throws Exception {
    String failed = fixture.withFailedTransform(); // extract ok, transform failed, load below it
    chrome.get(fixture.base() + "/workflows/etl/instances/" + failed);
    wait.until(ExpectedConditions.attributeToBe(By.id("graph"), "data-ready", "true"));
    wait.until(ExpectedConditions.attributeToBe(By.id("action-bar"), "data-ready", "true"));
    assertThat(disabled("action-poison")).isEqualTo("Rerun with downstream: no job selected");

    pick("transform").click();
    assertThat(disabled("action-redo")).isNull();
    assertThat(chrome.findElement(By.id("action-execution")).getAttribute("value"))
        .as("redo's execution: the job's last")
        .isEqualTo("1");
    pick("load").sendKeys(Keys.SPACE); // the checkboxes work from the keyboard
    clickNode("extract");

    assertThat(text("selection-count")).isEqualTo("3 selected: extract, transform, load");
    assertThat(pick("extract").isSelected()).isTrue();
    assertThat(script("return window.flipper.graph.getElementById('extract').hasClass('picked')"))
        .isEqualTo(true);
    assertThat(disabled("action-poison"))
        .isEqualTo("Rerun with downstream: report (downstream of extract) is runnable");
    assertThat(disabled("action-redo")).isEqualTo("Redo: select exactly one job");
    assertThat(disabled("action-enable")).isEqualTo("Enable: extract is not disabled");
    assertThat(disabled("action-disable")).isNull();
    assertThat(disabled("action-retry")).isNull();
    assertThat(disabled("action-resume")).isEqualTo("Resume: instance is not paused");
    WebElement poison = chrome.findElement(By.id("action-poison"));
    new Actions(chrome).moveToElement(poison).perform();
    assertThat(chrome.findElement(By.id("reason-poison")).isDisplayed()).isTrue();
    HeadlessChromium.screenshot(chrome, "action-bar-selection");
    script("document.getElementById('jobs-table').scrollIntoView()");
    HeadlessChromium.screenshot(chrome, "action-bar-jobs-table");
    script("window.scrollTo(0, 0)");

    pick("extract").click(); // unticked in the table, unselected in the graph: the rest can rerun
    assertThat(text("selection-count")).isEqualTo("2 selected: transform, load");
    assertThat(script("return window.flipper.graph.getElementById('extract').hasClass('picked')"))
        .isEqualTo(false);
    assertThat(disabled("action-poison")).isNull();

    chrome.findElement(By.id("action-retry")).click();
    wait.until(ExpectedConditions.presenceOfElementLocated(By.id("preview-changes")));
    assertThat(
            chrome.findElements(By.cssSelector("#preview-changes li")).stream()
                .map(WebElement::getText))
        .containsExactly(
            "transform FAILURE → RUNNABLE reruns with its last events",
            "load UPSTREAM_FAILED → WAITING downstream of transform");
    HeadlessChromium.screenshot(chrome, "action-retry-confirm");
    chrome.findElement(By.id("confirm")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "Changed"));
    HeadlessChromium.screenshot(chrome, "action-retry-done");

    Map<String, String> statuses = new LinkedHashMap<>();
    api("/api/workflows/etl/instances/" + failed)
        .get("jobs")
        .forEach(j -> statuses.put(j.get("name").asText(), j.get("status").asText()));
    assertThat(statuses)
        .containsEntry("extract", "SUCCESS")
        .containsEntry("transform", "RUNNABLE")
        .containsEntry("load", "WAITING");
  }

  @Test
  void startFormStartsARunWithItsParameters() throws Exception {
    chrome.get(fixture.base() + "/workflows/etl");
    List<WebElement> keys = chrome.findElements(By.cssSelector("#param-rows .param-key"));
    keys.get(0).sendKeys("day");
    chrome.findElements(By.cssSelector("#param-rows .param-value")).get(0).sendKeys("2026-11-28");
    chrome.findElement(By.id("param-add")).click();
    List<WebElement> rows = chrome.findElements(By.cssSelector("#param-rows .param-row"));
    assertThat(rows).hasSize(3);
    rows.get(2).findElement(By.className("param-key")).sendKeys("mode");
    rows.get(2).findElement(By.className("param-value")).sendKeys("full");
    rows.get(1).findElement(By.className("param-remove")).click(); // the empty one
    assertThat(chrome.findElements(By.cssSelector("#param-rows .param-row"))).hasSize(2);
    HeadlessChromium.screenshot(chrome, "start-form");

    chrome.findElement(By.id("action-start")).click();
    wait.until(ExpectedConditions.urlMatches("/workflows/etl/instances/[0-9]+$"));
    wait.until(ExpectedConditions.attributeToBe(By.id("graph"), "data-ready", "true"));
    HeadlessChromium.screenshot(chrome, "start-form-started");
    String instance = chrome.getCurrentUrl().replaceAll(".*/instances/", "");

    JsonNode page = api("/api/workflows/etl/instances/" + instance);
    assertThat(page.get("params").get("day").asText()).isEqualTo("2026-11-28");
    assertThat(page.get("params").get("mode").asText()).isEqualTo("full");
    assertThat(page.get("params").size()).isEqualTo(2);
  }

  /** The action's reason when it is disabled, null when it is enabled. */
  private static String disabled(String id) {
    WebElement button = chrome.findElement(By.id(id));
    return "true".equals(button.getAttribute("aria-disabled"))
        ? button.getAttribute("title")
        : null;
  }

  private static WebElement pick(String job) {
    return chrome.findElement(By.cssSelector("input.job-pick[value='" + job + "']"));
  }

  private static String text(String id) {
    return chrome.findElement(By.id(id)).getText();
  }

  private static Object script(String js) {
    return chrome.executeScript(js);
  }

  /** A real mouse click on the job's node, at its place on the canvas. */
  private static void clickNode(String job) {
    WebElement graph = chrome.findElement(By.id("graph"));
    // The whole graph in the window: a taller page may have scrolled its top nodes out of view.
    chrome.executeScript("arguments[0].scrollIntoView({block: 'start'})", graph);
    @SuppressWarnings("unchecked")
    List<Number> at =
        (List<Number>)
            script(
                "var p = window.flipper.graph.getElementById('"
                    + job
                    + "').renderedPosition(); return [p.x, p.y];");
    int x = (int) Math.round(at.get(0).doubleValue() - graph.getSize().getWidth() / 2.0);
    int y = (int) Math.round(at.get(1).doubleValue() - graph.getSize().getHeight() / 2.0);
    new Actions(chrome).moveToElement(graph, x, y).click().perform();
  }

  private static JsonNode api(String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }
}
