package dev.flipper.workflow.ui;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * Sign-in in a real headless Chromium: the login form, back to the page asked for, the user in the
 * header.
 */
@Tag("browser")
class UiSignInBrowserTest {
  private static UiFixture fixture;
  private static ChromeDriver chrome;
  private static WebDriverWait wait;

  @BeforeAll
  static void start() {
    fixture =
        new UiFixture(
                new UiAuth(
                    List.of(
                        new UiAuth.User(
                            "alice", BCrypt.hashpw("alice-pw", BCrypt.gensalt(4)), "operator")),
                    "",
                    List.of(),
                    false))
            .seed();
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
  void signInLeadsBackToTheInstanceAndSignOutLeavesIt() {
    chrome.get(fixture.base() + "/workflows/etl/instances/" + fixture.running);
    wait.until(ExpectedConditions.urlContains("/login?next="));
    chrome.findElement(By.id("login-name")).sendKeys("alice");
    chrome.findElement(By.id("login-password")).sendKeys("wrong");
    chrome.findElement(By.id("login-submit")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("login-error"), "wrong name or password"));
    HeadlessChromium.screenshot(chrome, "login-refused");

    chrome.findElement(By.id("login-name")).sendKeys("alice");
    chrome.findElement(By.id("login-password")).sendKeys("alice-pw");
    chrome.findElement(By.id("login-submit")).click();

    wait.until(ExpectedConditions.urlContains("/workflows/etl/instances/" + fixture.running));
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("me-name"), "alice (operator)"));
    wait.until(ExpectedConditions.presenceOfElementLocated(By.id("action-pause")));
    HeadlessChromium.screenshot(chrome, "signed-in");

    chrome.findElement(By.id("logout")).click();
    wait.until(ExpectedConditions.urlContains("/login"));
    chrome.get(fixture.base() + "/workflows/etl");
    wait.until(ExpectedConditions.urlContains("/login?next="));
  }
}
