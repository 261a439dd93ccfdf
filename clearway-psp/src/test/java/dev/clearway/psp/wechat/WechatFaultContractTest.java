package dev.clearway.psp.wechat;

import static dev.clearway.psp.wechat.WechatHarness.number;
import static dev.clearway.psp.wechat.WechatHarness.payment;
import static dev.clearway.psp.wechat.WechatHarness.ref;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.sim.psp.PspFaults;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How every simulated fault reaches the adapter, and how a query then finds the truth. */
class WechatFaultContractTest {
  private final PspFaults faults = new PspFaults(42);
  private final WechatHarness h = WechatHarness.start(o -> o, faults);

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aLostResponseIsUnknownAndTheQueryFindsThePaidOrder() {
    faults.lostResponseRate(1.0);
    String no = number("pay");
    PspOutcome lost = h.adapter.create(payment(no, 300));
    assertThat(lost.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(lost.errorCode()).isEqualTo("IO_ERROR");
    assertThat(h.charges(no)).as("it executed").hasSize(1);
    faults.lostResponseRate(0);
    WechatHarness.await(
        () -> h.adapter.retrieve(ref(no)).certainty() == ResultCertainty.CONFIRMED_SUCCESS,
        Duration.ofSeconds(3));
    PspOutcome truth = h.adapter.retrieve(ref(no));
    assertThat(truth.providerStatus()).isEqualTo("SUCCESS");
    assertThat(truth.providerPaymentId()).isNotBlank();
  }

  @Test
  void aLostResponseOfAnUnpaidOrderQueriesPending() {
    faults.lostResponseRate(1.0);
    String no = number("never");
    assertThat(h.adapter.create(payment(no, 300)).certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    faults.lostResponseRate(0);
    PspOutcome truth = h.adapter.retrieve(ref(no));
    assertThat(truth.certainty()).isEqualTo(ResultCertainty.PENDING);
    assertThat(truth.customerActionPending()).isTrue();
  }

  @Test
  void aResponseSlowerThanTheTimeoutIsUnknown() {
    faults.lostResponseRate(1.0);
    WechatPayAdapter impatient =
        h.adapter(c -> c.withTimeouts(Duration.ofSeconds(1), Duration.ofMillis(30)));
    PspOutcome outcome = impatient.create(payment(number("never"), 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(outcome.errorCode()).isEqualTo("TIMEOUT");
  }

  @Test
  void anOutageRefusesCreatesAsAFailoverEligibleDefiniteFailureAndExecutesNothing() {
    faults.outage(PspFaults.Outage.UNAVAILABLE);
    String no = number("pay");
    PspOutcome outcome = h.adapter.create(payment(no, 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(outcome.errorCode()).isEqualTo("CHANNEL_UNAVAILABLE");
    assertThat(outcome.failoverEligible()).isTrue();
    assertThat(h.charges(no)).isEmpty();
    PspOutcome query = h.adapter.retrieve(ref(no));
    assertThat(query.certainty())
        .as("queries still work")
        .isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(query.errorCode()).isEqualTo("ORDER_NOT_EXIST");
  }

  @Test
  void a500IsUnknownAndExecutesNothing() {
    faults.error500Rate(1.0);
    String no = number("pay");
    PspOutcome outcome = h.adapter.create(payment(no, 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(outcome.errorCode()).isEqualTo("SYSTEM_ERROR");
    assertThat(h.charges(no)).isEmpty();
  }

  @Test
  void aBlackHoleIsUnknownForEveryCall() {
    faults.outage(PspFaults.Outage.BLACKHOLE);
    String no = number("never");
    assertThat(h.adapter.create(payment(no, 100)).certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(h.adapter.retrieve(ref(no)).certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(h.adapter.close(ref(no)).certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(h.charges(no).size()).isEqualTo(faults.blackholeExecutes(no) ? 1 : 0);
    // The JDK client retries an idempotent GET once when the connection drops unanswered.
    assertThat(h.sim.queries().total()).as("the PSP saw the query").isBetween(1L, 2L);
  }

  @Test
  void aLieAnswersUnavailableButTheCustomerIsCharged() {
    faults.lieRate(1.0);
    String no = number("never");
    PspOutcome outcome = h.adapter.create(payment(no, 700));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(outcome.failoverEligible()).isTrue();
    WechatHarness.await(() -> h.charges(no).get(0).charged(), Duration.ofSeconds(3));
  }
}
