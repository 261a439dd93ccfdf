package dev.clearway.psp.wechat;

import static dev.clearway.psp.wechat.WechatHarness.number;
import static dev.clearway.psp.wechat.WechatHarness.payment;
import static dev.clearway.psp.wechat.WechatHarness.ref;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Create and replay of native orders against the simulated WeChat Pay over HTTP. */
class WechatCreateContractTest {
  private WechatHarness h;

  @BeforeEach
  void start() {
    h = WechatHarness.start();
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void createIsPendingUntilTheCustomerPays() {
    String no = number("never");
    PspOutcome outcome = h.adapter.create(payment(no, 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.PENDING);
    assertThat(outcome.customerActionPending()).isTrue();
    assertThat(outcome.requestId()).isNotBlank();
    assertThat(outcome.rawHash()).hasSize(64);
    assertThat(h.adapter.channel()).isEqualTo("wechat");
    assertThat(h.adapter.capabilities().supportsIdempotentReplay()).isTrue();
    assertThat(h.adapter.capabilities().supportsSearchByMerchantReference()).isTrue();
  }

  @Test
  void replayWithTheSameParametersGetsTheSameCodeUrlAndOneOrder() {
    String no = number("never");
    CreatePayment create = payment(no, 250);
    PspOutcome first = h.adapter.create(create);
    PspOutcome replay = h.adapter.create(create);
    assertThat(replay.certainty()).isEqualTo(ResultCertainty.PENDING);
    // Same body bytes, therefore the same code_url.
    assertThat(replay.rawHash()).isEqualTo(first.rawHash());
    assertThat(replay.requestId()).isNotEqualTo(first.requestId());
    assertThat(h.charges(no))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.amount()).isEqualTo(250);
              assertThat(c.merchantReference()).isEqualTo("PO-" + no);
              assertThat(c.status()).isEqualTo("PENDING");
            });
    assertThat(h.sim.queries().total()).as("the replay counts as a read").isEqualTo(1);
  }

  @Test
  void theSameNumberWithOtherParametersIsRefusedWithoutSideEffect() {
    String no = number("never");
    h.adapter.create(payment(no, 100));
    PspOutcome other = h.adapter.create(payment(no, 999));
    assertThat(other.certainty()).isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(other.errorCode()).isEqualTo("INVALID_REQUEST");
    assertThat(other.failoverEligible()).isFalse();
    assertThat(h.charges(no)).singleElement().extracting(c -> c.amount()).isEqualTo(100L);
  }

  @Test
  void aNumberWeChatPayWouldRefuseNeverLeavesTheProcess() {
    PspOutcome outcome = h.adapter.create(payment("x".repeat(33), 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(outcome.errorCode()).isEqualTo("INVALID_OUT_TRADE_NO");
    assertThat(h.sim.ledger()).isEmpty();
  }

  @Test
  void aWrongMerchantKeyIsRefusedWith401AsNoSideEffect() {
    WechatPayAdapter wrongKey =
        h.adapter(
            c ->
                new WechatPayConfig(
                    c.baseUrl(),
                    WechatHarness.credentials(WechatHarness.STRANGER, WechatHarness.PLATFORM),
                    c.notifyUrl(),
                    c.connectTimeout(),
                    c.requestTimeout(),
                    c.clock(),
                    c.notificationTolerance()));
    String no = number("pay");
    PspOutcome outcome = wrongKey.create(payment(no, 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(outcome.errorCode()).isEqualTo("SIGN_ERROR");
    assertThat(h.charges(no)).isEmpty();
  }

  @Test
  void anAnswerWhoseSignatureDoesNotVerifyIsUnknown() {
    WechatPayAdapter wrongPlatform =
        h.adapter(
            c ->
                new WechatPayConfig(
                    c.baseUrl(),
                    WechatHarness.credentials(WechatHarness.MERCHANT, WechatHarness.STRANGER),
                    c.notifyUrl(),
                    c.connectTimeout(),
                    c.requestTimeout(),
                    c.clock(),
                    c.notificationTolerance()));
    String no = number("never");
    PspOutcome outcome = wrongPlatform.create(payment(no, 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(outcome.errorCode()).isEqualTo("BAD_SIGNATURE");
    // It did execute: the signature was the only thing wrong.
    assertThat(h.charges(no)).hasSize(1);
    assertThat(wrongPlatform.retrieve(ref(no)).certainty()).isEqualTo(ResultCertainty.UNKNOWN);
  }

  @Test
  void aDeadPortIsUnknown() {
    WechatPayAdapter dead =
        h.adapter(
            c ->
                new WechatPayConfig(
                    java.net.URI.create("http://127.0.0.1:1"),
                    c.credentials(),
                    c.notifyUrl(),
                    Duration.ofMillis(300),
                    Duration.ofMillis(300),
                    c.clock(),
                    c.notificationTolerance()));
    PspOutcome outcome = dead.create(payment(number("pay"), 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(outcome.errorCode()).isIn("IO_ERROR", "TIMEOUT");
  }

  @Test
  void aCustomerWhoPaysMakesTheChargeVisibleInTheLedger() {
    String no = number("pay");
    h.adapter.create(payment(no, 500));
    WechatHarness.await(() -> h.charges(no).get(0).charged(), Duration.ofSeconds(3));
    assertThat(h.charges(no).get(0).providerPaymentId()).isNotBlank();
  }
}
