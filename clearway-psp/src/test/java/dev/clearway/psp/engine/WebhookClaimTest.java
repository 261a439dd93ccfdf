package dev.clearway.psp.engine;

import static dev.clearway.core.channel.spi.ResultCertainty.CONFIRMED_SUCCESS;
import static dev.clearway.core.channel.spi.ResultCertainty.DEFINITE_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.ChannelWebhookIntake.Disposition;
import dev.clearway.core.channel.engine.ChannelWebhookIntake.Result;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RecoveryCapabilities;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A webhook is claimed before any work and marked done after it. News of a charge that the
 * confirming retrieve can neither confirm nor deny is not marked done (the PSP delivers it again),
 * nor is one whose work threw; a done one is a duplicate for ever.
 */
class WebhookClaimTest {

  /** Stripe-like: a webhook is a hint that the engine confirms with a retrieve. */
  private static final RecoveryCapabilities HINTS =
      new RecoveryCapabilities(true, true, true, false, true);

  private final ScriptedPsp stripe = new ScriptedPsp("stripe", HINTS);
  private ChannelTestRig rig;
  private ChannelWebhookIntake intake;
  private ChannelContext ctx;
  private Attempt failed;

  @BeforeEach
  void setUp() {
    rig = new ChannelTestRig();
    ctx =
        rig.context(
            ChannelTestRig.rule(List.of(RecoveryStrategy.RETRIEVE), Duration.ofHours(1)), stripe);
    intake = new ChannelWebhookIntake(ctx);
    stripe.onCreate(ScriptedPsp.of(DEFINITE_FAILURE, "channel_unavailable", true));
    rig.b.onCreate(ScriptedPsp.success());
    new ChannelGateway(ctx, PaymentMethods.fixed("card", "pm_card_visa"))
        .pay(new ChargeRequest("t_claim", 7, 1_000, "EUR"));
    failed = rig.stores.attempts().attempts("t_claim").get(0);
    assertThat(failed.status()).isEqualTo(AttemptStatus.FAILED);
    stripe.nextWebhook =
        new WebhookNotice(
            "evt_claim",
            WebhookNotice.Kind.PAYMENT,
            failed.providerIdempotencyKey(),
            "pi_late",
            null,
            ScriptedPsp.of(CONFIRMED_SUCCESS, null, false),
            null,
            rig.clock.instant());
  }

  /** A (re)delivery once the account's pace has a slot free, as a PSP's redelivery comes later. */
  private Result deliver() {
    try {
      Thread.sleep(ctx.limiter().backlog(1L).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return intake.accept(1L, Map.of(), new byte[0]);
  }

  @Test
  void newsOfAChargeThatCannotBeConfirmedYetIsDeliveredAgain() {
    stripe.onRetrieve(PspOutcome.unknown("read_timeout"));

    Result first = deliver();

    assertThat(first.disposition()).isEqualTo(Disposition.REDELIVER);
    assertThat(rig.count("SELECT count(*) FROM attempt_compensation")).isZero();
    assertThat(rig.count("SELECT count(*) FROM channel_webhook_inbox")).isZero();

    stripe.onRetrieve(ScriptedPsp.success());
    assertThat(deliver()).isEqualTo(new Result(Disposition.PROCESSED, "confirmed"));
    assertThat(rig.count("SELECT count(*) FROM attempt_compensation")).isEqualTo(1);

    assertThat(deliver()).isEqualTo(new Result(Disposition.PROCESSED, "duplicate"));
    assertThat(stripe.count("retrieve")).isEqualTo(2);
  }

  @Test
  void aDeliveryWhoseWorkThrowsIsForgottenSoThatTheRedeliveryDoesTheWork() {
    stripe.retrieveThrows = true;
    assertThatThrownBy(this::deliver).hasMessageContaining("retrieve exploded");
    assertThat(rig.count("SELECT count(*) FROM channel_webhook_inbox")).isZero();

    stripe.retrieveThrows = false;
    stripe.onRetrieve(ScriptedPsp.success());
    assertThat(deliver().code()).isEqualTo("confirmed");
    assertThat(rig.count("SELECT count(*) FROM attempt_compensation")).isEqualTo(1);
    assertThat(rig.text("SELECT (done_at IS NOT NULL)::text FROM channel_webhook_inbox"))
        .isEqualTo("true");
  }

  @Test
  void aWebhookNeverWaitsForTheAccountsPaceOnItsRequestThread() {
    stripe.onRetrieve(ScriptedPsp.success());
    // Another confirmation took the account's next second of pace.
    assertThat(ctx.limiter().tryAcquire(1L, 1, Duration.ZERO)).isTrue();

    long started = System.nanoTime();
    Result paced = intake.accept(1L, Map.of(), new byte[0]);
    long tookMillis = (System.nanoTime() - started) / 1_000_000;

    assertThat(paced.disposition()).isEqualTo(Disposition.REDELIVER);
    assertThat(tookMillis).isLessThan(500);
    assertThat(stripe.count("retrieve")).isZero();
    assertThat(rig.count("SELECT count(*) FROM channel_webhook_inbox")).isZero();
  }
}
