package dev.clearway.psp.engine;

import static dev.clearway.core.channel.spi.ResultCertainty.CONFIRMED_SUCCESS;
import static dev.clearway.core.channel.spi.ResultCertainty.DEFINITE_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.CompensationWorker;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One compensation whose PSP call throws does not stop the others: it is reported, put back with a
 * delay that grows with its tries, and retried (with the same refund number) when due again.
 */
class CompensationIsolationTest {

  private ChannelTestRig rig;
  private ChannelContext ctx;
  private final List<String> failures = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() {
    rig = new ChannelTestRig();
    ctx = rig.context(ChannelTestRig.rule(List.of(RecoveryStrategy.RETRIEVE), Duration.ofHours(1)));
  }

  /** An order whose first attempt failed on account 1 although the PSP charged it. */
  private String chargedOnAFailedAttempt(String trade) {
    rig.a.onCreate(ScriptedPsp.of(DEFINITE_FAILURE, "channel_unavailable", true));
    rig.b.onCreate(ScriptedPsp.success());
    new ChannelGateway(ctx, PaymentMethods.fixed("card", "pm_card_visa"))
        .pay(new ChargeRequest(trade, 7, 1_000, "EUR"));
    Attempt failed = rig.stores.attempts().attempts(trade).get(0);
    rig.a.nextWebhook =
        new WebhookNotice(
            "evt_" + trade,
            WebhookNotice.Kind.PAYMENT,
            failed.providerIdempotencyKey(),
            "pi_late",
            null,
            ScriptedPsp.of(CONFIRMED_SUCCESS, null, false),
            null,
            rig.clock.instant());
    new ChannelWebhookIntake(ctx).accept(1L, Map.of(), new byte[0]);
    return CompensationWorker.refundNo(failed);
  }

  private String status(String refundNo) {
    return rig.text("SELECT status FROM attempt_compensation WHERE refund_no = '" + refundNo + "'");
  }

  @Test
  void aCompensationThatThrowsIsRetriedLaterAndDoesNotStopTheOthers() {
    String broken = chargedOnAFailedAttempt("t_c1");
    String fine = chargedOnAFailedAttempt("t_c2");
    rig.a.explodingRefunds.add(broken);
    CompensationWorker worker =
        new CompensationWorker(
            ctx, (loop, cause) -> failures.add(loop + ": " + cause.getMessage()));

    assertThat(worker.runOnce(10)).as("the round settles the healthy one").isEqualTo(1);
    assertThat(status(fine)).isEqualTo("REFUNDED");
    assertThat(status(broken)).isEqualTo("PENDING");
    assertThat(failures).containsExactly("channel-compensation-item: refund call exploded");
    assertThat(
            rig.text(
                "SELECT tries || ' ' || last_error FROM attempt_compensation WHERE refund_no = '"
                    + broken
                    + "'"))
        .isEqualTo("1 FAILED_IllegalStateException");

    // Not due again before its delay: later rounds are not stuck on it either.
    assertThat(worker.runOnce(10)).isZero();
    assertThat(rig.a.count("refund")).isEqualTo(2);

    rig.a.explodingRefunds.clear();
    rig.clock.advance(CompensationWorker.failureDelay(0).plusSeconds(1));
    assertThat(worker.runOnce(10)).isEqualTo(1);
    assertThat(status(broken)).isEqualTo("REFUNDED");
  }

  @Test
  void theDelayAfterAFailureGrowsAndIsCapped() {
    assertThat(CompensationWorker.failureDelay(0)).isEqualTo(Duration.ofSeconds(5));
    assertThat(CompensationWorker.failureDelay(3)).isEqualTo(Duration.ofSeconds(40));
    assertThat(CompensationWorker.failureDelay(30)).isEqualTo(Duration.ofMinutes(10));
  }
}
