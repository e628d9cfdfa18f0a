package dev.flipper.workflow.ui;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The Debian {@code chromium} and {@code chromium-driver} packages driven headless through
 * Selenium. Both are found on the PATH (scripts/ensure-services.sh installs them); never
 * downloaded. Missing ones fail the test with what to install: the browser tests must run, not
 * skip.
 */
final class HeadlessChromium {
  static final Path SCREENSHOTS = Path.of("target", "screenshots");

  private HeadlessChromium() {}

  static ChromeDriver start() {
    String browser = onPath("chromium").orElseThrow(() -> missing("chromium"));
    String driver =
        onPath("chromedriver").orElseThrow(() -> missing("chromedriver (package chromium-driver)"));
    ChromeOptions options = new ChromeOptions();
    options.setBinary(browser);
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL); // tests read the console (CSP violations)
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(driver))
            .usingAnyFreePort()
            .build();
    ChromeDriver chrome = new ChromeDriver(service, options);
    chrome.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    return chrome;
  }

  /** Saves a PNG of the page under target/screenshots/. */
  static Path screenshot(ChromeDriver chrome, String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, ((TakesScreenshot) chrome).getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Saves a PNG of the whole page, beyond the window's height, under target/screenshots/. */
  @SuppressWarnings("unchecked")
  static Path fullPageScreenshot(ChromeDriver chrome, String name) {
    Map<String, Object> size =
        (Map<String, Object>)
            chrome.executeCdpCommand("Page.getLayoutMetrics", Map.of()).get("cssContentSize");
    // the window's width: without a vertical scrollbar (the capture is as tall as the page) the
    // page lays out that wide
    Object width = chrome.executeScript("return window.innerWidth");
    Map<String, Object> clip =
        Map.of("x", 0, "y", 0, "width", width, "height", size.get("height"), "scale", 1);
    String png =
        (String)
            chrome
                .executeCdpCommand(
                    "Page.captureScreenshot",
                    Map.of("format", "png", "captureBeyondViewport", true, "clip", clip))
                .get("data");
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, Base64.getDecoder().decode(png));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<String> onPath(String command) {
    return Arrays.stream(
            System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator))
        .map(dir -> Path.of(dir, command))
        .filter(Files::isExecutable)
        .map(Path::toString)
        .findFirst();
  }

  private static IllegalStateException missing(String what) {
    return new IllegalStateException(
        what
            + " is not on the PATH: the UI's browser tests need the Debian packages "
            + "chromium and chromium-driver; run scripts/ensure-services.sh (or apt-get install chromium "
            + "chromium-driver)");
  }
}
