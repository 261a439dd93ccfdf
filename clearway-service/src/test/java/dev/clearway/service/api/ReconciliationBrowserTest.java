package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.ReconSeed.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * The console's Reconciliation panel in a real browser (headless Chromium): the last run of each
 * account, the open differences by class with amount and oldest age, and a ticket closed by
 * maker/checker: the operator proposes, cannot approve, and the approver's approval resolves it.
 * Runs with the Maven profile {@code browser}.
 */
@Tag("browser")
class ReconciliationBrowserTest {
  private static RunningApi api;
  private static WebDriver browser;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
    ReconSeed.reset();
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
  void theOperatorProposesTheApproverResolvesATicketFromThePanel() throws Exception {
    RunningApi.execute(
        """
        INSERT INTO recon_run (account_ref, statement_day, file_id, status, lines, differences,
               new_differences, auto_repaired, tickets, started_at, finished_at)
        VALUES ('acct_panel', DATE '2026-11-30', NULL, 'DONE', 1200, 3, 3, 1, 2,
                now() - interval '1 hour', now() - interval '59 minutes')
        """);
    long ticket = ReconSeed.insert(Row.ticket("acct_panel", "AMOUNT_MISMATCH", "T_panel_1", 1990));
    ReconSeed.insert(Row.ticket("acct_panel", "AMOUNT_MISMATCH", "T_panel_2", 10));
    ReconSeed.insert(Row.ticket("acct_panel", "FEE_MISMATCH", "T_panel_3", 7).state("OPEN"));

    browser.get(api.baseUrl() + "/console");
    useKey(RunningApi.OPERATOR_KEY);
    waitFor(() -> text("recon-runs").contains("acct_panel"));
    assertThat(text("recon-runs")).contains("2026-11-30").contains("DONE").contains("1200");
    waitFor(() -> text("recon-classes").contains("AMOUNT_MISMATCH"));
    WebElement amountRow =
        browser.findElement(By.cssSelector("#recon-classes tr[data-class='AMOUNT_MISMATCH']"));
    assertThat(amountRow.findElement(By.cssSelector("td.count")).getText()).isEqualTo("2");
    assertThat(amountRow.findElement(By.cssSelector("td.amount")).getText()).isEqualTo("2000");
    assertThat(amountRow.getText()).contains("60 min");
    assertThat(text("recon-classes")).contains("FEE_MISMATCH");
    assertThat(text("recon-tickets")).contains("T_panel_1").doesNotContain("T_panel_3");
    assertThat(text("rt-tickets")).isEqualTo("2");

    click(By.cssSelector("#recon-tickets tr[data-difference='" + ticket + "']"));
    waitFor(() -> text("rf-state").equals("NEEDS_PERSON"));
    assertThat(text("rf-trade-order")).isEqualTo("T_panel_1");
    browser.findElement(By.id("rp-ticket")).sendKeys("FIN-7");
    browser.findElement(By.id("rp-reason")).sendKeys("the PSP refunded the difference");
    browser.findElement(By.id("rp-evidence")).sendKeys("PSP case 5521");
    browser.findElement(By.id("rp-submit")).click();
    waitFor(() -> text("recon-msg").contains("PROPOSED"));

    // The operator cannot approve; the approver can.
    click(By.cssSelector("#recon-commands button.approve"));
    waitFor(() -> text("recon-msg").contains("forbidden"));
    assertThat(ReconSeed.text("SELECT state FROM recon_difference WHERE id = " + ticket))
        .isEqualTo("NEEDS_PERSON");

    useKey(RunningApi.APPROVER_KEY);
    waitFor(
        () -> !browser.findElements(By.cssSelector("#recon-commands button.approve")).isEmpty());
    click(By.cssSelector("#recon-commands button.approve"));
    waitFor(() -> text("recon-msg").contains("APPLIED"));
    waitFor(() -> text("rf-state").equals("RESOLVED"));
    assertThat(ReconSeed.text("SELECT state FROM recon_difference WHERE id = " + ticket))
        .isEqualTo("RESOLVED");
    waitFor(() -> !text("recon-tickets").contains("T_panel_1"));
    assertThat(text("rt-tickets")).isEqualTo("1");

    Path shot = Path.of("target", "console-reconciliation.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
  }

  private static void useKey(String key) {
    ConsoleBrowser.useKey(browser, key);
  }

  private static String text(String id) {
    return ConsoleBrowser.text(browser, id);
  }

  /** The console re-renders its tables: find and click in one retried step. */
  private static void click(By by) {
    ConsoleBrowser.click(browser, by);
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) {
    ConsoleBrowser.waitFor(browser, Duration.ofSeconds(20), condition);
  }
}
