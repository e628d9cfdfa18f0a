package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The schedules and workers pages in a headless Chromium: reached from the navigation, an exit set
 * from the workers page through its confirmation and seen in the banner and the worker's state, a
 * workflow unscheduled from the schedules page. Screenshots go to target/screenshots/.
 */
@Tag("browser")
class UiFleetBrowserTest {
  private static UiFixture fixture;
  private static ChromeDriver chrome;
  private static WebDriverWait wait;

  @BeforeAll
  static void start() {
    fixture = new UiFixture().seed();
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

  @Test
  void exitFromTheWorkersPageAndUnscheduleFromTheSchedulesPage() {
    chrome.get(fixture.base() + "/");
    chrome.findElement(By.linkText("Workers")).click();
    WebElement worker =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("tr[data-worker='" + UiFixture.WORKER + "']")));
    assertThat(worker.getText())
        .contains("host-1", "alive", "1/4", "etl/" + fixture.running + "/transform");
    assertThat(
            chrome
                .findElement(By.cssSelector("tr[data-worker='" + UiFixture.DEAD_WORKER + "']"))
                .getText())
        .contains("dead");
    HeadlessChromium.screenshot(chrome, "workers");

    WebElement generation = chrome.findElement(By.id("exit-generation"));
    generation.clear();
    generation.sendKeys("2");
    chrome.findElement(By.id("action-exit")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("confirm-question"), "exit workers older than generation 2?"));
    chrome.findElement(By.id("confirm")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "/signal/global/EXIT"));
    HeadlessChromium.screenshot(chrome, "action-exit-done");
    chrome.findElement(By.cssSelector("nav.crumbs a")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("banner"), "EXIT (global)"));
    assertThat(
            chrome
                .findElement(By.cssSelector("tr[data-worker='" + UiFixture.WORKER + "']"))
                .getText())
        .contains("draining");

    chrome.findElement(By.linkText("Schedules")).click();
    WebElement row =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-workflow=etl]")));
    assertThat(row.getText()).contains("waiting", "every 1h", "SKIP");
    HeadlessChromium.screenshot(chrome, "schedules");
    row.findElement(By.cssSelector("button.action-unschedule")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("confirm-question"), "unschedule etl?"));
    chrome.findElement(By.id("confirm")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("result"), "/schedule/workflow/etl"));
    chrome.findElement(By.cssSelector("nav.crumbs a")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.cssSelector("tr[data-workflow=etl]"), "unscheduled"));
    HeadlessChromium.screenshot(chrome, "schedules-unscheduled");
  }
}
