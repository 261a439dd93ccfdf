package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.service.api.RunningApi.Answer;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's Batch refunds panel in headless Chromium: a batch an operator proposed through the
 * API shows PROPOSED with every item pending; the operator's approval is refused in the panel, a
 * different person with the approver role approves it, the node's runner refunds every payment, and
 * the row ends DONE at 100% with the report's counts. The batch meters follow. Runs with the Maven
 * profile {@code browser}.
 */
@Tag("browser")
class RefundBatchesBrowserTest {
  private static final String MERCHANT = "default";
  private static final String SCENE = "gala-2031";
  private static final int PAID = 3;

  private static RunningApi api;
  private static WebDriver browser;

  @BeforeAll
  static void start() {
    api =
        RunningApi.start(
            "clearway.refund-batches.poll-interval=100ms",
            "clearway.refund-batches.settle-interval=200ms",
            "clearway.metrics.refresh=200ms");
    RunningApi.resetDatabase();
    RunningApi.execute(
        "TRUNCATE refund_batch_audit, refund_batch_item, refund_batch, refund_order_history,"
            + " refund_order RESTART IDENTITY CASCADE");
    RunningApi.execute(
        "INSERT INTO pay_flow (merchant_id, user_id, scene, biz_key, attempt_no, trade_order_no,"
            + " refund_order_no, status, version, amount, currency, biz_deadline_time,"
            + " next_retry_time, created_at, updated_at)"
            + " SELECT '"
            + MERCHANT
            + "', 42, '"
            + SCENE
            + "', 'g' || g, 1, 't_gala_' || g, 'r_t_gala_' || g, 'BIZ_SUCCESS', 3, 900, 'CNY',"
            + " now(), now(), now(), now() FROM generate_series(1, "
            + PAID
            + ") g");
    for (int g = 1; g <= PAID; g++) {
      api.wallet.pay(new ChargeRequest("t_gala_" + g, 42, 900, "CNY"));
    }
    browser = ConsoleBrowser.headlessChromium(1600);
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
  void aProposedBatchIsApprovedInThePanelByAnotherPersonAndEndsDoneWithItsReport() {
    Answer proposed =
        api.call("POST", "/ops/refund-batches")
            .bearer(RunningApi.OPERATOR_KEY)
            .contentType("application/json")
            .body(
                "{\"merchant\":\""
                    + MERCHANT
                    + "\",\"scene\":\""
                    + SCENE
                    + "\",\"ticket\":\"OPS-91\",\"reason\":\"gala cancelled\"}")
            .send();
    assertThat(proposed.status()).as("%s", proposed).isEqualTo(201);
    long id = proposed.json().get("id").asLong();
    String row = "#batches tr[data-batch='" + id + "']";

    browser.get(api.baseUrl() + "/console");
    useKey(RunningApi.OPERATOR_KEY);
    waitFor(() -> browser.findElement(By.id("refund-batches")).isDisplayed());
    waitFor(() -> cell(row, ".bstate").equals("PROPOSED"));
    assertThat(cell(row, ".b-PENDING")).isEqualTo(Integer.toString(PAID));
    assertThat(cell(row, ".b-REFUNDED")).isEqualTo("0");
    assertThat(cell(row, ".batch-bar")).isEqualTo("0%");
    assertThat(browser.findElement(By.cssSelector(row)).getText()).contains("olivia", "OPS-91");

    // The operator cannot approve: the panel says so and the batch stays PROPOSED.
    click(By.cssSelector(row + " button[data-act='approve']"));
    waitFor(() -> text("batch-msg").contains("forbidden"));
    assertThat(cell(row, ".bstate")).isEqualTo("PROPOSED");

    useKey(RunningApi.APPROVER_KEY);
    click(By.cssSelector(row + " button[data-act='approve']"));
    waitFor(() -> text("batch-msg").contains("approve done"));
    waitFor(() -> cell(row, ".bstate").equals("DONE"));
    assertThat(cell(row, ".b-REFUNDED")).isEqualTo(Integer.toString(PAID));
    assertThat(cell(row, ".b-PENDING")).isEqualTo("0");
    assertThat(cell(row, ".b-NEEDS_PERSON")).isEqualTo("0");
    assertThat(cell(row, ".batch-bar")).isEqualTo("100%");
    assertThat(browser.findElement(By.cssSelector(row)).getText()).contains("aaron");
    assertThat(browser.findElements(By.cssSelector(row + " button"))).isEmpty();

    MeterRegistry meters = api.bean(MeterRegistry.class);
    waitFor(() -> meters.get("clearway.refund.batches").tag("state", "DONE").gauge().value() == 1);
    assertThat(meters.get("clearway.refund.batches").tag("state", "PROPOSED").gauge().value())
        .isZero();
  }

  private static String cell(String row, String css) {
    return new WebDriverWait(browser, Duration.ofSeconds(5))
        .ignoring(StaleElementReferenceException.class)
        .ignoring(org.openqa.selenium.NoSuchElementException.class)
        .until(d -> d.findElement(By.cssSelector(row + " " + css)).getText().strip());
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
    ConsoleBrowser.waitFor(browser, Duration.ofSeconds(20), condition);
  }
}
