package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.ui.queue.QueueLinks;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Every page of the UI (workflows, a workflow, a running and a finished instance, a job, a log,
 * schedules, workers, the token browser and a token, the queue dashboard's pages, an action's
 * confirmation and result, sign-in, an error) in headless Chromium, in the light and the dark
 * theme, at a laptop's and a phone's width (390x844): axe-core (from its WebJar on the test
 * classpath) finds no violation of impact serious or critical on any of them. Screenshots of each
 * go to target/screenshots/&lt;theme&gt;-&lt;width&gt;-&lt;page&gt;.png (the whole page). Also: the
 * theme follows the system until the navbar's toggle chooses one, the skip link comes first on the
 * keyboard, and the phone's menu opens from its button.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("browser")
class UiAccessibilityBrowserTest {
  private static final Dimension LAPTOP = new Dimension(1400, 1000);
  private static final Dimension PHONE = new Dimension(390, 844);

  /**
   * One page: where it is, what to click there to reach it (an action's button), what shows it is
   * ready.
   */
  private record Page(String name, String path, By click, By ready) {
    Page(String name, String path) {
      this(name, path, null, By.tagName("main"));
    }

    Page ready(By element) {
      return new Page(name, path, click, element);
    }

    Page click(By button) {
      return new Page(name, path, button, ready);
    }
  }

  private static UiFixture fixture;
  private static QueueUiFixture queues;
  private static ChromeDriver chrome;
  private static WebDriverWait wait;
  private static String axe;

  @BeforeAll
  static void start() {
    fixture = new UiFixture().seed();
    queues = new QueueUiFixture().seed();
    chrome = HeadlessChromium.start();
    chrome.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
    // generous: the graph pages load Cytoscape, slow on a busy shared machine
    wait = new WebDriverWait(chrome, Duration.ofSeconds(60));
    axe = axeSource();
  }

  @AfterAll
  static void stop() {
    if (chrome != null) {
      chrome.quit();
    }
    queues.close();
    fixture.close();
  }

  /** axe.min.js from the axe-core WebJar (a test dependency; the UI does not serve it). */
  private static String axeSource() {
    String resource =
        "META-INF/resources" + WebJars.url("org.webjars.npm", "axe-core", "axe.min.js");
    try (InputStream in =
        UiAccessibilityBrowserTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as(resource + " on the test classpath").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Page> pages() {
    String instance = "/workflows/etl/instances/";
    String job = instance + fixture.finished + "/jobs/report";
    By graph = By.cssSelector("#graph[data-ready=true]");
    return List.of(
        new Page("workflows", "/").ready(By.id("workflows-table")),
        new Page("workflow", "/workflows/etl").ready(graph),
        new Page("workflow-filtered", "/workflows/etl?status=SUCCESS&sort=longest")
            .ready(By.id("runs-live")),
        new Page("grid", "/workflows/etl/grid").ready(By.id("run-grid")),
        new Page("job-history", "/workflows/etl/jobs/report").ready(By.id("job-history-table")),
        new Page("instance-running", instance + fixture.running).ready(graph),
        new Page("instance-finished", instance + fixture.finished).ready(graph),
        new Page("job", job).ready(By.id("executions-table")),
        new Page("log", job + "/executions/1/logs/stdout")
            .ready(By.cssSelector("#log[data-state=complete]")),
        new Page("schedules", "/schedules").ready(By.id("schedules-table")),
        new Page("workers", "/workers").ready(By.id("workers-table")),
        new Page("tokens", "/tokens?path=/").ready(By.id("tokens-table")),
        new Page("token", "/token?name=/definition/etl").ready(By.id("token-data")),
        new Page("action-confirm", instance + fixture.running)
            .click(By.id("action-stop"))
            .ready(By.id("confirm")),
        new Page("action-done", "/workers").click(By.id("action-unexit")).ready(By.id("result")),
        new Page("login", "/login").ready(By.id("login-name")),
        new Page("error", "/workflows/no-such-workflow").ready(By.id("error")),
        new Page("queues", queues.base() + "/queues").ready(By.id("queues-table")),
        new Page("queue", queues.base() + QueueLinks.queue(QueueUiFixture.QUEUE))
            .ready(By.id("jobs-table")),
        new Page("queue-job", queues.base() + QueueLinks.job(queues.failed.toString()))
            .ready(By.id("job-body")),
        new Page("queue-action-confirm", queues.base() + QueueLinks.queue(QueueUiFixture.QUEUE))
            .click(By.id("action-delete"))
            .ready(By.id("confirm")));
  }

  private static void open(Page page) {
    chrome.get(page.path().startsWith("http") ? page.path() : fixture.base() + page.path());
    wait.until(
        ExpectedConditions.presenceOfElementLocated(
            page.click() == null ? page.ready() : page.click()));
    if (page.click() != null) {
      chrome.findElement(page.click()).click();
    }
    wait.until(ExpectedConditions.presenceOfElementLocated(page.ready()));
    wait.until(d -> "complete".equals(chrome.executeScript("return document.readyState")));
  }

  /** Chooses the theme on both UIs (each origin has its own storage). */
  private static void useTheme(String theme) {
    for (String base : List.of(fixture.base(), queues.base())) {
      chrome.get(base + "/login");
      chrome.executeScript("localStorage.setItem('flipper-theme', arguments[0])", theme);
    }
  }

  /** The serious and critical violations axe finds on the page: rule, impact, help and targets. */
  @SuppressWarnings("unchecked")
  private static List<String> seriousViolations() {
    chrome.executeScript(axe);
    return (List<String>)
        chrome.executeAsyncScript(
            "var done = arguments[arguments.length - 1];"
                + "axe.run(document, { resultTypes: ['violations'] }).then(function (r) {"
                + "  done(r.violations.filter(function (v) {"
                + "    return v.impact === 'serious' || v.impact === 'critical'; })"
                + "  .map(function (v) { return v.id + ' (' + v.impact + ', ' + v.help + '): '"
                + "    + v.nodes.map(function (n) { return n.target.join(' ')"
                + "    + (n.failureSummary ? ' [' + n.failureSummary.replace(/\\s+/g, ' ') + ']' : ''); })"
                + "  .join(' | '); }));"
                + "}).catch(function (e) { done(['axe failed: ' + e]); });");
  }

  @ParameterizedTest(name = "{0} theme, {1}")
  @CsvSource({"light, laptop", "dark, laptop", "light, phone", "dark, phone"})
  @Order(1)
  void everyPageHasNoSeriousAccessibilityViolation(String theme, String width) {
    chrome.manage().window().setSize(width.equals("phone") ? PHONE : LAPTOP);
    useTheme(theme);
    List<String> found = new ArrayList<>();
    for (Page page : pages()) {
      open(page);
      assertThat(chrome.executeScript("return document.documentElement.dataset.bsTheme"))
          .as(page.name())
          .isEqualTo(theme);
      HeadlessChromium.fullPageScreenshot(chrome, theme + "-" + width + "-" + page.name());
      seriousViolations().forEach(v -> found.add(page.name() + " (" + page.path() + "): " + v));
    }
    assertThat(found)
        .as("serious or critical axe violations, " + theme + " theme, " + width)
        .isEmpty();
  }

  @Test
  @Order(2)
  void theThemeFollowsTheSystemUntilTheToggleChoosesOne() {
    chrome.manage().window().setSize(LAPTOP);
    chrome.get(fixture.base() + "/workers");
    chrome.executeScript("localStorage.removeItem('flipper-theme')");
    chrome.executeCdpCommand(
        "Emulation.setEmulatedMedia",
        Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
    try {
      chrome.navigate().refresh();
      assertThat(theme()).as("the system's").isEqualTo("dark");
      assertThat(chrome.findElement(By.id("theme-toggle")).getAttribute("aria-pressed"))
          .isEqualTo("true");

      chrome.findElement(By.id("theme-toggle")).click();
      assertThat(theme()).isEqualTo("light");
      assertThat(chrome.executeScript("return localStorage.getItem('flipper-theme')"))
          .isEqualTo("light");
      chrome.navigate().refresh();
      assertThat(theme()).as("the choice outlives the page").isEqualTo("light");

      chrome.findElement(By.id("theme-toggle")).click();
      assertThat(theme()).isEqualTo("dark");
      assertThat(chrome.executeScript("return localStorage.getItem('flipper-theme')"))
          .as("choosing the system's theme follows the system again")
          .isNull();
    } finally {
      chrome.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
    }
    // set before the first paint: a plain script in <head>, neither deferred nor async
    assertThat(
            chrome.executeScript(
                "var s = document.querySelector('head script[src=\"/static/theme.js\"]');"
                    + " return s !== null && !s.defer && !s.async"))
        .isEqualTo(true);
  }

  private static Object theme() {
    return chrome.executeScript("return document.documentElement.getAttribute('data-bs-theme')");
  }

  @Test
  @Order(3)
  void theKeyboardReachesTheSkipLinkFirstAndThePhoneMenuOpensFromItsButton() {
    chrome.manage().window().setSize(PHONE);
    chrome.get(fixture.base() + "/schedules");
    chrome.findElement(By.tagName("body")).sendKeys(Keys.TAB);
    WebElement skip = chrome.switchTo().activeElement();
    assertThat(skip.getText()).isEqualTo("Skip to content");
    assertThat(skip.isDisplayed()).as("visible once focused").isTrue();
    skip.sendKeys(Keys.ENTER);
    wait.until(d -> "main".equals(chrome.switchTo().activeElement().getAttribute("id")));

    WebElement menu = chrome.findElement(By.id("nav-toggle"));
    WebElement schedules = chrome.findElement(By.cssSelector(".navbar a[href='/schedules']"));
    assertThat(schedules.isDisplayed()).as("folded on a phone").isFalse();
    menu.click();
    assertThat(menu.getAttribute("aria-expanded")).isEqualTo("true");
    assertThat(schedules.isDisplayed()).isTrue();
    assertThat(schedules.getAttribute("aria-current")).isEqualTo("page");
    HeadlessChromium.screenshot(chrome, "phone-menu-open");
    chrome.manage().window().setSize(LAPTOP);
  }
}
