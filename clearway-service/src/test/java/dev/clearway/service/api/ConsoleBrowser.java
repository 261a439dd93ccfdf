package dev.clearway.service.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The browser of the console tests: Debian's headless Chromium driven by its ChromeDriver, with the
 * flags that keep it off the closed network, and the steps every console test takes. The console
 * re-renders its tables every 2 s, so every step that reads or clicks an element finds it again
 * when it went stale.
 */
final class ConsoleBrowser {
  private ConsoleBrowser() {}

  /** A new headless Chromium, 1400 × 1600. */
  static WebDriver headlessChromium() {
    return headlessChromium(1400);
  }

  /** A new headless Chromium, {@code width} × 1600 (a wide table fits without scrolling). */
  static WebDriver headlessChromium(int width) {
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=" + width + ",1600");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
            .build();
    return new ChromeDriver(service, options);
  }

  /** Types an API key into the console's key field and uses it. */
  static void useKey(WebDriver browser, String key) {
    WebElement input = browser.findElement(By.id("key"));
    input.clear();
    input.sendKeys(key);
    browser.findElement(By.id("use-key")).click();
  }

  /** The text of the element with this id, waiting up to 5 s for it. */
  static String text(WebDriver browser, String id) {
    return new WebDriverWait(browser, Duration.ofSeconds(5))
        .ignoring(StaleElementReferenceException.class)
        .until(d -> d.findElement(By.id(id)).getText());
  }

  /** Finds and clicks in one retried step, for up to 15 s. */
  static void click(WebDriver browser, By by) {
    new WebDriverWait(browser, Duration.ofSeconds(15))
        .ignoring(StaleElementReferenceException.class)
        .until(
            d -> {
              d.findElement(by).click();
              return true;
            });
  }

  /** Waits until the condition holds, for up to {@code timeout}. */
  static void waitFor(WebDriver browser, Duration timeout, BooleanSupplier condition) {
    new WebDriverWait(browser, timeout)
        .ignoring(StaleElementReferenceException.class)
        .until(d -> condition.getAsBoolean());
  }
}
