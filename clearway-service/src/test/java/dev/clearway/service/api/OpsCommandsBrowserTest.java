package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.Select;

/**
 * The console's panel of commands for cases that wait for a person, in headless Chromium: an
 * operator proposes to keep a charge found on a failed attempt; the operator cannot approve it, a
 * different person with the approver role can, and the compensation is settled. Runs with the Maven
 * profile {@code browser}.
 */
@Tag("browser")
class OpsCommandsBrowserTest {
  private static RunningApi api;
  private static WebDriver browser;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
    RunningApi.resetDatabase();
    RunningApi.execute(
        "TRUNCATE manual_command, manual_audit, attempt_compensation, recovery_task,"
            + " payment_attempt_history, provider_evidence, channel_refund, payment_attempt,"
            + " payment_order, channel_account RESTART IDENTITY CASCADE");
    RunningApi.execute(
        """
        INSERT INTO channel_account
          (id, channel, account_ref, failure_domain, payment_methods, priority)
        VALUES (1, 'stripe', 'acct_a', 'psp:stripe-a', 'card', 1);
        INSERT INTO payment_order
          (trade_order_no, amount, currency, payment_method, status, created_at, updated_at)
        VALUES ('T_K', 1500, 'EUR', 'card', 'OPEN', now(), now());
        INSERT INTO payment_attempt
          (id, trade_order_no, seq, channel_account_id, origin, provider_idempotency_key,
           create_request_hash, status, result_certainty, amount, currency, payment_method,
           created_at, updated_at)
        VALUES (301, 'T_K', 1, 1, 'INITIAL', 'k301', repeat('0', 64), 'FAILED',
                'DEFINITE_FAILURE', 1500, 'EUR', 'card', now(), now());
        INSERT INTO attempt_compensation
          (attempt_id, trade_order_no, refund_no, amount, status, reason, last_error, due_at,
           created_at, updated_at)
        VALUES (301, 'T_K', 'CR301', 1500, 'MANUAL', 'CHARGED_AFTER_FAILURE', 'REFUND_ABNORMAL',
                now(), now(), now());
        """);
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
  void anOperatorProposesToKeepAChargeAndADifferentApproverSettlesIt() {
    browser.get(api.baseUrl() + "/console");
    useKey(RunningApi.OPERATOR_KEY);
    waitFor(() -> browser.findElement(By.id("ops-commands")).isDisplayed());

    new Select(browser.findElement(By.id("o-kind"))).selectByVisibleText("KEEP_CHARGE");
    assertThat(text("o-target-kind")).isEqualTo("COMPENSATION");
    browser.findElement(By.id("o-target")).sendKeys("301");
    browser.findElement(By.id("o-ticket")).sendKeys("OPS-77");
    browser.findElement(By.id("o-reason")).sendKeys("customer keeps the goods");
    browser.findElement(By.id("o-evidence")).sendKeys("support case 4411");
    browser.findElement(By.id("o-submit")).click();
    waitFor(() -> text("ops-msg").contains("PROPOSED"));
    waitFor(() -> text("ops-open").contains("KEEP_CHARGE"));
    assertThat(status()).isEqualTo("MANUAL");

    // The operator cannot approve; a different person with the approver role can.
    click(By.cssSelector("#ops-open button.approve"));
    waitFor(() -> text("ops-msg").contains("forbidden"));
    assertThat(status()).isEqualTo("MANUAL");

    useKey(RunningApi.APPROVER_KEY);
    click(By.cssSelector("#ops-open button.approve"));
    waitFor(() -> text("ops-msg").contains("APPLIED"));
    assertThat(text("ops-msg")).contains("KEPT");
    assertThat(status()).isEqualTo("KEPT");
    waitFor(() -> text("ops-open").contains("no open proposals"));
  }

  private static String status() {
    try (java.sql.Connection c =
            dev.clearway.store.testing.TestDatabase.get().dataSource().getConnection();
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs =
            st.executeQuery("SELECT status FROM attempt_compensation WHERE attempt_id = 301")) {
      rs.next();
      return rs.getString(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void useKey(String key) {
    ConsoleBrowser.useKey(browser, key);
  }

  private static String text(String id) {
    return ConsoleBrowser.text(browser, id);
  }

  private static void click(By by) {
    ConsoleBrowser.click(browser, by);
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) {
    ConsoleBrowser.waitFor(browser, Duration.ofSeconds(15), condition);
  }
}
