package dev.clearway.psp.wechat;

import static dev.clearway.psp.wechat.WechatHarness.number;
import static dev.clearway.psp.wechat.WechatHarness.payment;
import static dev.clearway.psp.wechat.WechatHarness.ref;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.RefundOutcome.RefundState;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.wechat.RefundBehaviour;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Refunds by out_refund_no against the simulator over HTTP. */
class WechatRefundContractTest {
  private static final RefundBehaviour MIX =
      new RefundBehaviour(0.25, 0.25, 0.25, Duration.ofMillis(150));
  private final PspFaults faults = new PspFaults(7);
  private final WechatHarness h = WechatHarness.start(o -> o.withRefunds(MIX), faults);
  private String paid;

  @BeforeEach
  void pay() {
    paid = number("pay");
    h.adapter.create(payment(paid, 1_000));
    WechatHarness.await(() -> h.charges(paid).get(0).charged(), Duration.ofSeconds(3));
  }

  @AfterEach
  void stop() {
    h.close();
  }

  /** A fresh refund number whose first status is {@code status}. */
  private String refundNo(String status) {
    for (int i = 0; i < 1_000; i++) {
      String no = number("rf");
      if (MIX.firstStatus(faults.seed(), no).equals(status)) {
        return no;
      }
    }
    throw new AssertionError("no refund number with status " + status);
  }

  private RefundCall call(String refundNo, long amount) {
    return new RefundCall(refundNo, ref(paid), amount, 1_000, "CNY");
  }

  @Test
  void theSameRefundNumberRefundsOnce() {
    String no = refundNo("SUCCESS");
    RefundOutcome first = h.adapter.refund(call(no, 300));
    RefundOutcome again = h.adapter.refund(call(no, 300));
    assertThat(first.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(again.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(again.providerRefundId()).isEqualTo(first.providerRefundId());
    assertThat(h.charges(paid).get(0).refunded()).isEqualTo(300);
    assertThat(h.adapter.queryRefund(call(no, 300)).state()).isEqualTo(RefundState.SUCCEEDED);
  }

  @Test
  void aClosedRefundNumberStaysClosedAndANewNumberIsNeeded() {
    String closed = refundNo("CLOSED");
    assertThat(h.adapter.refund(call(closed, 300)).state()).isEqualTo(RefundState.CLOSED);
    RefundOutcome again = h.adapter.refund(call(closed, 300));
    assertThat(again.state()).isEqualTo(RefundState.CLOSED);
    assertThat(again.errorCode()).isEqualTo("CLOSED");
    assertThat(h.adapter.queryRefund(call(closed, 300)).state()).isEqualTo(RefundState.CLOSED);
    RefundOutcome fresh = h.adapter.refund(call(refundNo("SUCCESS"), 1_000));
    assertThat(fresh.state())
        .as("a closed refund does not use up the charge")
        .isEqualTo(RefundState.SUCCEEDED);
    assertThat(h.charges(paid).get(0).refunded()).isEqualTo(1_000);
  }

  @Test
  void anAbnormalRefundSurfaces() {
    String no = refundNo("ABNORMAL");
    RefundOutcome outcome = h.adapter.refund(call(no, 100));
    assertThat(outcome.state()).isEqualTo(RefundState.ABNORMAL);
    assertThat(outcome.providerStatus()).isEqualTo("ABNORMAL");
    assertThat(h.adapter.queryRefund(call(no, 100)).state()).isEqualTo(RefundState.ABNORMAL);
  }

  @Test
  void aProcessingRefundSucceedsLater() {
    String no = refundNo("PROCESSING");
    assertThat(h.adapter.refund(call(no, 100)).state()).isEqualTo(RefundState.PROCESSING);
    WechatHarness.await(
        () -> h.adapter.queryRefund(call(no, 100)).state() == RefundState.SUCCEEDED,
        Duration.ofSeconds(3));
  }

  @Test
  void refundingMoreThanRemainsIsRejected() {
    h.adapter.refund(call(refundNo("SUCCESS"), 800));
    RefundOutcome over = h.adapter.refund(call(refundNo("SUCCESS"), 201));
    assertThat(over.state()).isEqualTo(RefundState.REJECTED);
    assertThat(over.errorCode()).isEqualTo("NOT_ENOUGH");
    assertThat(h.charges(paid).get(0).refunded()).isEqualTo(800);
  }

  @Test
  void anUnknownRefundNumberIsNotFound() {
    RefundOutcome none = h.adapter.queryRefund(call(number("rf"), 100));
    assertThat(none.state()).isEqualTo(RefundState.NOT_FOUND);
    assertThat(none.requestId()).isNotBlank();
  }

  @Test
  void aLostRefundResponseIsUnknownAndTheQueryFindsIt() {
    faults.lostResponseRate(1.0);
    String no = refundNo("SUCCESS");
    assertThat(h.adapter.refund(call(no, 100)).state()).isEqualTo(RefundState.UNKNOWN);
    faults.lostResponseRate(0);
    assertThat(h.adapter.queryRefund(call(no, 100)).state()).isEqualTo(RefundState.SUCCEEDED);
  }
}
