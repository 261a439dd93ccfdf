package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The console's last hour in a real browser (headless Chromium, Maven profile {@code browser}):
 * payments made over the API appear in the payments-by-outcome series with their exact count, the
 * series gains a point per ended step (2 s here instead of a minute), and the UNKNOWN share and the
 * oldest open age are drawn from the same points the service sampled.
 */
@Tag("browser")
class LastHourBrowserTest {
  private static RunningApi api;
  private static WebDriver browser;

  @BeforeAll
  static void start() {
    api = RunningApi.start("clearway.console.series-step=2s");
    RunningApi.resetDatabase();
    browser = ConsoleBrowser.headlessChromium();
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (api != null) {
      api.close();
    }
  }

  @Test
  void paymentsAppearInTheLastHourByOutcomeWithAPointPerStep() throws Exception {
    browser.get(api.baseUrl() + "/console");
    WebElement input = browser.findElement(By.id("key"));
    input.sendKeys(RunningApi.OPERATOR_KEY);
    browser.findElement(By.id("use-key")).click();
    waitFor(() -> browser.findElement(By.id("lasthour")).isDisplayed());
    int pointsBefore = points("BIZ_SUCCESS");

    for (int i = 1; i <= 3; i++) {
      RunningApi.Answer paid = api.pay("last-hour-" + i, RunningApi.Payment.of(700 + i, "lh-" + i));
      assertThat(paid.status()).as(paid.body()).isEqualTo(201);
    }

    // Three payments ended in BIZ_SUCCESS within the hour: the legend counts them exactly.
    waitFor(() -> "3".equals(legend("ts-payments-legend", "BIZ_SUCCESS")));
    assertThat(legend("ts-payments-legend", "PAY_FAIL")).isEqualTo("0");
    // Steps of 2 s end while we wait: the series gains points, drawn on the line.
    waitFor(() -> points("BIZ_SUCCESS") >= pointsBefore + 2);
    assertThat(browser.findElements(By.cssSelector("#ts-payments polyline.ts-line"))).hasSize(4);
    // The simulated wallet answered every call: the share of UNKNOWN answers is zero, not absent.
    waitFor(() -> "0.0%".equals(legend("ts-unknown-legend", "latest")));
    assertThat(legend("ts-oldest-legend", "now")).matches("\\d+ s");
    assertThat(text("ts-steps")).contains("steps of 2 s");

    Path shot = Path.of("target", "console-last-hour.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
  }

  private static int points(String series) {
    List<WebElement> circles =
        browser.findElements(
            By.cssSelector("#ts-payments circle.ts-point[data-series='" + series + "']"));
    return circles.size();
  }

  private static String legend(String id, String series) {
    List<WebElement> found =
        browser.findElements(
            By.cssSelector("#" + id + " .ts-legend[data-series='" + series + "'] .ts-value"));
    return found.isEmpty() ? null : found.get(0).getText();
  }

  private static String text(String id) {
    return ConsoleBrowser.text(browser, id);
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) {
    ConsoleBrowser.waitFor(browser, Duration.ofSeconds(20), condition);
  }
}
