package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The ops console in a real browser (headless Chromium from Debian's packages): live figures and
 * transitions, the review queue, a flow's timeline, and a command proposed by an operator that
 * takes effect only when an approver approves it; the channel panel with an account, its recovery
 * tasks and an order's evidence timeline. Runs with the Maven profile {@code browser}.
 */
@Tag("browser")
class ConsoleBrowserTest {
  private static RunningApi api;
  private static WebDriver browser;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
    RunningApi.resetDatabase();
    RunningApi.execute("TRUNCATE manual_command, manual_audit RESTART IDENTITY");
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
  void anOperatorProposesAnApproverApprovesAndTheFlowMovesThroughTheStateMachine()
      throws Exception {
    RunningApi.Answer paid = api.pay("console-key-1", RunningApi.Payment.of(501, "console-ok"));
    assertThat(paid.status()).isEqualTo(201);
    PayFlow frozen = frozenPayedFlow();

    browser.get(api.baseUrl() + "/console");
    useKey(RunningApi.OPERATOR_KEY);
    waitFor(() -> text("chart-status").contains("BIZ_SUCCESS"));
    waitFor(() -> text("queue").contains(String.valueOf(frozen.id())));
    waitFor(() -> text("transitions").contains("BIZ_SUCCESS"));
    // Operators see every merchant: each row names its own.
    assertThat(text("queue")).contains("default");
    waitFor(() -> allCells("#transitions td.merchant", "default"));

    click(By.cssSelector("#queue tr[data-flow='" + frozen.id() + "']"));
    waitFor(() -> text("fact-state").equals("PAYED"));
    assertThat(text("fact-merchant")).isEqualTo("default");
    assertThat(text("timeline")).contains("PAYING").contains("PAYED");

    browser.findElement(By.id("p-ticket")).sendKeys("OPS-1");
    browser.findElement(By.id("p-reason")).sendKeys("charged, business never granted");
    browser.findElement(By.id("p-evidence")).sendKeys("wallet statement line 12");
    browser.findElement(By.id("p-submit")).click();
    waitFor(() -> text("detail-msg").contains("PROPOSED"));
    assertThat(text("fact-state")).isEqualTo("PAYED");

    // The operator cannot approve; the approver can.
    click(By.cssSelector("#commands button.approve"));
    waitFor(() -> text("detail-msg").contains("forbidden"));
    assertThat(TestDatabase.get().store().find(frozen.id()).orElseThrow().status())
        .isEqualTo(FlowStatus.PAYED);

    useKey(RunningApi.APPROVER_KEY);
    waitFor(() -> !browser.findElements(By.cssSelector("#commands button.approve")).isEmpty());
    click(By.cssSelector("#commands button.approve"));
    waitFor(() -> text("detail-msg").contains("APPLIED"));
    waitFor(() -> text("fact-state").equals("REFUNDED"));
    assertThat(text("timeline")).contains("MANUAL").contains("REFUNDING");

    Path shot = Path.of("target", "console.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
  }

  @Test
  void theChannelsPanelShowsAnAccountItsTasksAndAnOrdersEvidenceTimeline() throws Exception {
    RunningApi.execute(
        "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
            + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
            + " payment_order, channel_account CASCADE");
    RunningApi.execute(
        """
        INSERT INTO channel_account
          (id, channel, account_ref, failure_domain, payment_methods, priority)
        VALUES (7, 'stripe', 'acct_console', 'psp:stripe-a', 'card', 1);
        INSERT INTO payment_order
          (trade_order_no, amount, currency, payment_method, status, created_at, updated_at)
        VALUES ('T_console_1', 1500, 'EUR', 'card', 'OPEN', now() - interval '20 minutes', now());
        INSERT INTO payment_attempt
          (id, trade_order_no, seq, channel_account_id, origin, previous_attempt_id,
           provider_idempotency_key, create_request_hash, status, result_certainty, error_code,
           amount, currency, payment_method, created_at, updated_at)
        VALUES
          (701, 'T_console_1', 1, 7, 'INITIAL', NULL, 'k701', repeat('0', 64), 'FAILED',
           'DEFINITE_FAILURE', 'card_declined', 1500, 'EUR', 'card',
           now() - interval '15 minutes', now() - interval '15 minutes'),
          (702, 'T_console_1', 2, 7, 'FAILOVER', 701, 'k702', repeat('0', 64), 'UNKNOWN',
           'UNKNOWN', NULL, 1500, 'EUR', 'card',
           now() - interval '10 minutes', now() - interval '10 minutes');
        INSERT INTO provider_evidence
          (attempt_id, source, operation, certainty, provider_status, error_code, request_id,
           policy_version, observed_at)
        VALUES
          (701, 'RESPONSE', 'CREATE', 'DEFINITE_FAILURE', 'card_declined', 'card_declined',
           'req-701-1', 'v3', now() - interval '15 minutes'),
          (702, 'RESPONSE', 'CREATE', 'UNKNOWN', NULL, 'connect_timeout',
           'req-702-1', 'v3', now() - interval '10 minutes'),
          (702, 'QUERY', 'RETRIEVE', 'PENDING', 'NOTPAY', NULL,
           'req-702-2', 'v3', now() - interval '5 minutes');
        INSERT INTO recovery_task
          (attempt_id, channel_account_id, status, strategy, due_at, attempt_count,
           policy_version, last_error, created_at, updated_at)
        VALUES (702, 7, 'LEASED', 'QUERY', now() + interval '30 seconds', 2, 'v3',
                'psp_timeout', now() - interval '10 minutes', now());
        """);

    browser.get(api.baseUrl() + "/console");
    useKey(RunningApi.OPERATOR_KEY);
    waitFor(() -> browser.findElement(By.id("channels")).isDisplayed());
    waitFor(() -> text("channel-accounts").contains("acct_console"));
    assertThat(browser.findElements(By.cssSelector("#channel-accounts tbody tr[data-account]")))
        .hasSize(1);
    String account = text("channel-accounts");
    // 3 answers of the last hour, 1 UNKNOWN; 1 open task, about 10 minutes old.
    assertThat(account).contains("stripe").contains("psp:stripe-a").contains("33.3%");
    assertThat(account).contains("UNKNOWN 1").contains("FAILED 1").contains("10 min");
    assertThat(account).contains("no circuit in this process");
    assertThat(text("channel-totals")).contains("failovers (1 h) 1");
    waitFor(() -> text("channel-tasks").contains("T_console_1"));
    assertThat(text("channel-tasks")).contains("LEASED").contains("psp_timeout").contains("v3");

    // A malformed number is refused in the page, an unknown one by the server.
    searchOrder("T-1");
    waitFor(() -> text("order-msg").contains("invalid_trade_order_no"));
    searchOrder("T_nowhere");
    waitFor(() -> text("order-msg").contains("order_not_found"));

    // The task's row opens the order's attempts with their evidence.
    click(By.cssSelector("#channel-tasks tr[data-order='T_console_1']"));
    waitFor(() -> text("order-timeline").contains("NOTPAY"));
    assertThat(text("order-msg")).isEmpty();
    String timeline = text("order-timeline");
    assertThat(timeline)
        .contains("attempt 701")
        .contains("attempt 702")
        .contains("FAILOVER after 701")
        .contains("task LEASED")
        .contains("req-702-1")
        .contains("connect_timeout")
        .contains("card_declined");
    assertThat(browser.findElements(By.cssSelector("#order-timeline tr.evidence"))).hasSize(3);

    searchOrder("T_console_1");
    waitFor(() -> text("order-timeline").contains("req-701-1"));

    // A long evidence timeline: its newest page first, then "more".
    RunningApi.execute(
        "INSERT INTO provider_evidence (attempt_id, source, operation, certainty, request_id,"
            + " observed_at) SELECT 702, 'QUERY', 'RETRIEVE', 'UNKNOWN', 'req-more-' || g, now()"
            + " FROM generate_series(1, 120) g");
    searchOrder("T_console_1");
    waitFor(() -> evidenceRows() == 101);
    click(By.cssSelector("#order-timeline button.more-evidence"));
    waitFor(() -> evidenceRows() == 123);
    assertThat(text("order-timeline")).contains("req-702-1").contains("req-701-1");

    Path shot = Path.of("target", "console-channels.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
  }

  @Test
  void aLongQueueShowsItsFirstPageAndMoreOnRequestWithEachRowsMerchant() throws Exception {
    RunningApi.resetDatabase();
    RunningApi.execute(
        """
        INSERT INTO pay_flow
          (merchant_id, user_id, scene, biz_key, attempt_no, status, amount, currency,
           biz_deadline_time, next_retry_time, trade_order_no, refund_order_no, review_state,
           review_reason, created_at, updated_at)
        SELECT 'shop-b', 8000 + g, 'renewal', 'console-many-' || g, 1, 'PAYED', 500, 'CNY',
               now() + interval '1 hour', now() + interval '1 day', 't_console_' || g,
               'r_t_console_' || g, 'FROZEN', 'BIZ_DONE_WITHOUT_ATTRIBUTION', now(), now()
          FROM generate_series(1, 130) g
        """);
    try {
      browser.get(api.baseUrl() + "/console");
      useKey(RunningApi.OPERATOR_KEY);
      waitFor(() -> queueRows() == 100);
      assertThat(browser.findElement(By.id("queue-more")).isDisplayed()).isTrue();
      waitFor(() -> allCells("#queue td.merchant", "shop-b"));

      click(By.id("queue-more"));
      waitFor(() -> queueRows() == 130);
      assertThat(browser.findElement(By.id("queue-more")).isDisplayed()).isFalse();
      assertThat(text("queue-pager")).contains("130 shown");
      // The refresh every 2 s keeps what the reader loaded...
      Thread.sleep(2_500);
      assertThat(queueRows()).isEqualTo(130);
      // ...until they go back to the latest page.
      click(By.id("queue-latest"));
      waitFor(() -> queueRows() == 100);
    } finally {
      RunningApi.resetDatabase();
    }
  }

  /**
   * Whether there are cells matching {@code css} and every one reads {@code text}, read in one
   * script so that no refresh of the table lands between two cells.
   */
  private static boolean allCells(String css, String text) {
    Object cells =
        ((JavascriptExecutor) browser)
            .executeScript(
                "return Array.from(document.querySelectorAll(arguments[0]),"
                    + " td => td.textContent.trim());",
                css);
    return cells instanceof java.util.List<?> list
        && !list.isEmpty()
        && list.stream().allMatch(text::equals);
  }

  private static int queueRows() {
    return browser.findElements(By.cssSelector("#queue tbody tr[data-flow]")).size();
  }

  private static int evidenceRows() {
    return browser.findElements(By.cssSelector("#order-timeline tr.evidence")).size();
  }

  private static void searchOrder(String tradeOrderNo) {
    WebElement input = browser.findElement(By.id("order-no"));
    input.clear();
    input.sendKeys(tradeOrderNo);
    browser.findElement(By.id("order-search")).click();
  }

  private static PayFlow frozenPayedFlow() {
    JdbcFlowStore store = TestDatabase.get().store();
    Instant now = Instant.now();
    PayFlow flow =
        store
            .createAttempt(
                new NewPayment(
                    GoalKey.ofDefaultMerchant(502, "renewal", "console-frozen"),
                    700,
                    "CNY",
                    now.plusSeconds(3600)),
                // Held for a minute: an expired lease would let the running engine's scanner
                // claim the row before the moves below, which write under this lease.
                new Lease("test-holder", now.plusSeconds(60)),
                now)
            .flow();
    flow = move(store, flow, FlowStatus.PAYING);
    api.wallet.pay(new ChargeRequest(flow.tradeOrderNo(), 502, 700, "CNY"));
    flow = move(store, flow, FlowStatus.PAYED);
    store.freeze(flow.id(), flow.leaseOwner(), "BIZ_DONE_WITHOUT_ATTRIBUTION", now);
    return store.find(flow.id()).orElseThrow();
  }

  private static PayFlow move(JdbcFlowStore store, PayFlow from, FlowStatus to) {
    Instant now = Instant.now();
    return store
        .transition(
            new TransitionWrite(
                from,
                to,
                null,
                now.plusSeconds(60),
                from.leaseOwner(),
                new HistoryNote(TriggerSource.SYNC, null, "TEST", 0),
                now,
                from.leaseOwner()))
        .orElseThrow();
  }

  private static void useKey(String key) {
    ConsoleBrowser.useKey(browser, key);
  }

  private static String text(String id) {
    return ConsoleBrowser.text(browser, id);
  }

  /** The console re-renders its tables every 2 s: find and click in one retried step. */
  private static void click(By by) {
    ConsoleBrowser.click(browser, by);
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) {
    ConsoleBrowser.waitFor(browser, Duration.ofSeconds(15), condition);
  }
}
