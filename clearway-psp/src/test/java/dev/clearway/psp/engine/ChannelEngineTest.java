package dev.clearway.psp.engine;

import static dev.clearway.core.channel.spi.ResultCertainty.CONFIRMED_SUCCESS;
import static dev.clearway.core.channel.spi.ResultCertainty.DEFINITE_FAILURE;
import static dev.clearway.core.channel.spi.ResultCertainty.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.CompensationWorker;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.port.ChannelHealth;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The channel layer on the real database, with in-process scripted PSPs. */
class ChannelEngineTest {

  private ChannelTestRig rig;
  private ChannelContext ctx;
  private ChannelGateway gateway;
  private RecoveryWorker worker;
  private final ExecutorService pool = Executors.newFixedThreadPool(4);

  @BeforeEach
  void setUp() {
    rig = new ChannelTestRig();
    use(ChannelTestRig.rule(List.of(RecoveryStrategy.RETRIEVE), Duration.ofHours(1)));
  }

  private void use(dev.clearway.core.channel.policy.PolicyRule rule) {
    ctx = rig.context(rule);
    gateway = new ChannelGateway(ctx, PaymentMethods.fixed("card", "pm_card_visa"));
    worker = new RecoveryWorker(ctx, new RecoveryWorker.Settings("w1", 50, Duration.ofSeconds(45)));
  }

  @AfterEach
  void tearDown() {
    pool.shutdownNow();
  }

  private static ChargeRequest charge(String trade) {
    return new ChargeRequest(trade, 7, 1_000, "EUR");
  }

  @Test
  void unknownCreateNeverFailsOverAndIsReplayedWithTheSameKey() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"), ScriptedPsp.success());

    WalletResult first = gateway.pay(charge("t_1"));
    assertThat(first.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.queryPayment("t_1").certainty()).isEqualTo(Certainty.UNKNOWN);

    WalletResult again = gateway.pay(charge("t_1"));
    assertThat(again.certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(rig.a.creates).hasSize(2);
    assertThat(rig.a.creates.get(0)).isEqualTo(rig.a.creates.get(1));
    assertThat(rig.a2.calls).isEmpty();
    assertThat(rig.b.calls).isEmpty();
    List<Attempt> attempts = rig.stores.attempts().attempts("t_1");
    assertThat(attempts).hasSize(1);
    assertThat(attempts.get(0).replayCount()).isEqualTo(1);
    assertThat(
            rig.count(
                "SELECT count(*) FROM outbox_event WHERE event_type = 'PaymentAttemptSucceeded'"))
        .isEqualTo(1);
  }

  @Test
  void definiteFailureFailsOverToAnotherFailureDomainWithANewKey() {
    rig.a.onCreate(ScriptedPsp.of(DEFINITE_FAILURE, "channel_unavailable", true));
    rig.b.onCreate(ScriptedPsp.success());

    assertThat(gateway.pay(charge("t_2")).certainty()).isEqualTo(Certainty.SUCCESS);

    List<Attempt> attempts = rig.stores.attempts().attempts("t_2");
    assertThat(attempts).hasSize(2);
    assertThat(attempts.get(0).status()).isEqualTo(AttemptStatus.FAILED);
    assertThat(attempts.get(1).origin()).isEqualTo(AttemptOrigin.FAILOVER);
    assertThat(attempts.get(1).previousAttemptId()).isEqualTo(attempts.get(0).id());
    assertThat(attempts.get(1).channelAccountId()).isEqualTo(3L); // psp-a excluded, not account 2
    assertThat(attempts.get(1).providerIdempotencyKey())
        .isNotEqualTo(attempts.get(0).providerIdempotencyKey());
    assertThat(rig.a2.calls).isEmpty();
  }

  @Test
  void declinedCardDoesNotFailOver() {
    rig.a.onCreate(ScriptedPsp.of(DEFINITE_FAILURE, "card_declined", false));

    WalletResult result = gateway.pay(charge("t_3"));

    assertThat(result.certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(result.errorCode()).isEqualTo("card_declined");
    assertThat(rig.stores.attempts().attempts("t_3")).hasSize(1);
    assertThat(rig.denied).contains("ERROR_POLICY_DENIES_FAILOVER");
    assertThat(gateway.queryPayment("t_3").certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
  }

  @Test
  void openCircuitTakesAnAccountOutOfNewCreatesOnly() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_4")); // in flight on account 1
    rig.health =
        new ChannelHealth() {
          @Override
          public boolean admitsCreate(long id) {
            return id != 1L;
          }

          @Override
          public void onCreate(long id, boolean healthy) {}
        };
    rig.a2.onCreate(ScriptedPsp.success());
    assertThat(gateway.pay(charge("t_5")).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(rig.stores.attempts().attempts("t_5").get(0).channelAccountId()).isEqualTo(2L);

    // The in-flight attempt is still recovered on its own account.
    rig.a.onRetrieve(ScriptedPsp.success());
    rig.clock.advance(Duration.ofMinutes(1));
    assertThat(worker.runOnce(pool)).isEqualTo(1);
    assertThat(rig.a.count("retrieve")).isEqualTo(1);
    assertThat(rig.stores.attempts().attempts("t_4").get(0).status())
        .isEqualTo(AttemptStatus.SUCCEEDED);
  }

  @Test
  void webhookAndRecoveryRacingMoveTheAttemptOnce() throws Exception {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_6"));
    Attempt attempt = rig.stores.attempts().attempts("t_6").get(0);
    rig.clock.advance(Duration.ofMinutes(1));
    List<RecoveryTask> claimed =
        rig.stores.tasks().claimDue("w1", 10, Duration.ofSeconds(45), rig.clock.instant());
    assertThat(claimed).hasSize(1);

    // The webhook lands between the claim and the worker's answer.
    rig.a.nextWebhook =
        new WebhookNotice(
            "evt_1",
            WebhookNotice.Kind.PAYMENT,
            attempt.providerIdempotencyKey(),
            "pi_ok",
            null,
            ScriptedPsp.success(),
            null,
            rig.clock.instant());
    ChannelWebhookIntake intake = new ChannelWebhookIntake(ctx);
    assertThat(intake.accept(1L, Map.of(), new byte[0]).code()).isEqualTo("recorded");
    assertThat(intake.accept(1L, Map.of(), new byte[0]).code()).isEqualTo("duplicate");

    rig.a.onRetrieve(ScriptedPsp.success());
    worker.run(claimed.get(0));

    assertThat(
            rig.count("SELECT count(*) FROM payment_attempt_history WHERE to_status = 'SUCCEEDED'"))
        .isEqualTo(1);
    assertThat(rig.count("SELECT count(*) FROM outbox_event")).isEqualTo(1);
    assertThat(rig.text("SELECT status FROM recovery_task")).isEqualTo("RESOLVED");
    // The duplicate delivery was answered before any work: one callback, one evidence row.
    assertThat(rig.count("SELECT count(*) FROM provider_evidence WHERE source = 'CALLBACK'"))
        .isEqualTo(1);
  }

  @Test
  void anExpiredLeaseIsTakenOverAndAValidOneIsNot() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_7"));
    rig.clock.advance(Duration.ofMinutes(1));
    assertThat(rig.stores.tasks().claimDue("w1", 10, Duration.ofSeconds(45), rig.clock.instant()))
        .hasSize(1);
    // w1 "crashed". Within its lease nobody else may take the task.
    rig.clock.advance(Duration.ofSeconds(30));
    assertThat(rig.stores.tasks().claimDue("w2", 10, Duration.ofSeconds(45), rig.clock.instant()))
        .isEmpty();
    rig.clock.advance(Duration.ofSeconds(20));
    List<RecoveryTask> taken =
        rig.stores.tasks().claimDue("w2", 10, Duration.ofSeconds(45), rig.clock.instant());
    assertThat(taken).hasSize(1);
    assertThat(taken.get(0).leaseOwner()).isEqualTo("w2");
    assertThat(taken.get(0).attemptCount()).isEqualTo(2);
  }

  @Test
  void aReplayWhoseParametersDifferIsRefusedBeforeItLeaves() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_8"));
    Attempt stored = rig.stores.attempts().attempts("t_8").get(0);
    Attempt tampered =
        new Attempt(
            stored.id(),
            stored.tradeOrderNo(),
            stored.seq(),
            stored.channelAccountId(),
            stored.origin(),
            stored.previousAttemptId(),
            stored.providerIdempotencyKey(),
            stored.createRequestHash(),
            stored.providerPaymentId(),
            stored.status(),
            stored.certainty(),
            stored.errorCode(),
            false,
            false,
            new Attempt.Money(9_999, "EUR", "pm_card_visa"),
            stored.replayCount(),
            stored.version(),
            stored.createdAt());
    var executor =
        new dev.clearway.core.channel.engine.CreateExecutor(
            ctx, new dev.clearway.core.channel.engine.AttemptRecorder(ctx));
    Instant now = rig.clock.instant();
    assertThat(rig.stores.tasks().holdTask(stored.id(), "replayer", now.plusSeconds(30), now))
        .isTrue();
    Attempt after = executor.replay(tampered, "card", "test-v1", null, 0, "replayer");

    assertThat(rig.a.creates).hasSize(1); // the tampered replay never reached the PSP
    assertThat(after.status()).isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(rig.text("SELECT error_code FROM provider_evidence ORDER BY id DESC LIMIT 1"))
        .isEqualTo("REPLAY_REQUEST_MISMATCH");
  }

  @Test
  void aChargeOnAFailedAttemptIsCompensatedNotRewritten() {
    rig.a.onCreate(ScriptedPsp.of(DEFINITE_FAILURE, "channel_unavailable", true));
    rig.b.onCreate(ScriptedPsp.success());
    gateway.pay(charge("t_9"));
    Attempt failed = rig.stores.attempts().attempts("t_9").get(0);
    rig.a.nextWebhook =
        new WebhookNotice(
            "evt_9",
            WebhookNotice.Kind.PAYMENT,
            failed.providerIdempotencyKey(),
            "pi_late",
            null,
            ScriptedPsp.of(CONFIRMED_SUCCESS, null, false),
            null,
            rig.clock.instant());

    new ChannelWebhookIntake(ctx).accept(1L, Map.of(), new byte[0]);

    assertThat(rig.stores.attempts().attempt(failed.id()).orElseThrow().status())
        .isEqualTo(AttemptStatus.FAILED);
    assertThat(rig.multiple).containsExactly("t_9");
    assertThat(new CompensationWorker(ctx).runOnce(10)).isEqualTo(1);
    assertThat(rig.a.count("refund")).isEqualTo(1);
    assertThat(rig.text("SELECT status FROM attempt_compensation")).isEqualTo("REFUNDED");
    assertThat(
            rig.count(
                "SELECT count(*) FROM outbox_event WHERE event_type = 'DuplicateChargeRefunded'"))
        .isEqualTo(1);
    assertThat(new CompensationWorker(ctx).runOnce(10)).isZero();
  }

  @Test
  void pastTheMaximumUnknownAgeATaskGoesToAPerson() {
    use(ChannelTestRig.rule(List.of(RecoveryStrategy.RETRIEVE), Duration.ofMinutes(5)));
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_10"));
    rig.clock.advance(Duration.ofMinutes(6));

    worker.runOnce(pool);

    assertThat(rig.text("SELECT status FROM recovery_task")).isEqualTo("MANUAL");
    assertThat(rig.text("SELECT last_error FROM recovery_task")).isEqualTo("MAX_UNKNOWN_AGE");
    assertThat(rig.a.count("retrieve")).isZero();
    assertThat(rig.stores.attempts().attempts("t_10").get(0).status())
        .isEqualTo(AttemptStatus.UNKNOWN);
  }

  @Test
  void queryStillUnknownKeepsRecoveringWithBackoff() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    rig.a.onRetrieve(ScriptedPsp.of(UNKNOWN, "http_503", false));
    gateway.pay(charge("t_11"));
    rig.clock.advance(Duration.ofMinutes(1));

    worker.runOnce(pool);

    assertThat(rig.text("SELECT status FROM recovery_task")).isEqualTo("READY");
    assertThat(rig.stores.attempts().attempts("t_11").get(0).status())
        .isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(worker.runOnce(pool)).isZero(); // not due again yet
    assertThat(rig.b.calls).isEmpty();
  }

  @Test
  void aBusinessRetryClosesTheChallengedAttemptAndStartsANewOneWithTheNewMethod() {
    rig.a.onCreate(
        new PspOutcome(
            dev.clearway.core.channel.spi.ResultCertainty.PENDING,
            "requires_action",
            "pi_3ds",
            null,
            false,
            true,
            "req",
            null),
        ScriptedPsp.success());
    assertThat(gateway.pay(charge("t_12")).certainty()).isEqualTo(Certainty.PROCESSING);

    WalletResult retried = gateway.retryWithMethod("t_12", "pm_card_other");

    assertThat(retried.certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(rig.a.count("close")).isEqualTo(1);
    List<Attempt> attempts = rig.stores.attempts().attempts("t_12");
    assertThat(attempts).hasSize(2);
    assertThat(attempts.get(0).status()).isEqualTo(AttemptStatus.FAILED);
    assertThat(attempts.get(1).origin()).isEqualTo(AttemptOrigin.BUSINESS_RETRY);
    assertThat(attempts.get(1).previousAttemptId()).isEqualTo(attempts.get(0).id());
    assertThat(attempts.get(1).money().paymentMethod()).isEqualTo("pm_card_other");
    assertThat(attempts.get(1).providerIdempotencyKey())
        .isNotEqualTo(attempts.get(0).providerIdempotencyKey());
    assertThat(rig.a.creates.get(1).paymentMethod()).isEqualTo("pm_card_other");
  }

  @Test
  void aBusinessRetryOnARequestThreadNeverWaitsForTheAccountsPace() {
    rig.a.onCreate(
        new PspOutcome(
            dev.clearway.core.channel.spi.ResultCertainty.PENDING,
            "requires_action",
            "pi_3ds_paced",
            null,
            false,
            true,
            "req",
            null),
        ScriptedPsp.success());
    gateway.pay(charge("t_14"));
    // Another close took the account's next second of pace.
    assertThat(ctx.limiter().tryAcquire(1L, 1, Duration.ZERO)).isTrue();

    long started = System.nanoTime();
    WalletResult paced = gateway.retryWithMethod("t_14", "pm_card_other");
    long tookMillis = (System.nanoTime() - started) / 1_000_000;

    assertThat(paced.errorCode()).isEqualTo(ChannelGateway.PREVIOUS_NOT_FINAL);
    assertThat(tookMillis).isLessThan(500);
    assertThat(rig.a.count("close")).isZero();
    assertThat(rig.stores.attempts().attempts("t_14")).hasSize(1);
  }

  @Test
  void aBusinessRetryIsRefusedWhileThePreviousResultIsUnknown() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_13"));

    WalletResult refused = gateway.retryWithMethod("t_13", "pm_card_other");

    assertThat(refused.errorCode()).isEqualTo(ChannelGateway.PREVIOUS_NOT_FINAL);
    assertThat(rig.stores.attempts().attempts("t_13")).hasSize(1);
    assertThat(rig.a.creates).hasSize(1);
  }

  @Test
  void anAccountThisProcessHasNoAdapterForIsNeverRouted() {
    // Another deployment's account, first by priority, in the shared table.
    rig.stores
        .accounts()
        .upsertAccount(
            new dev.clearway.core.channel.domain.ChannelAccount(
                99, "stripe", "acct_other", "psp:other", java.util.Set.of("card"), 0, true));
    rig.a.onCreate(ScriptedPsp.success());

    assertThat(gateway.pay(charge("t_14")).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(rig.stores.attempts().attempts("t_14").get(0).channelAccountId()).isEqualTo(1L);
  }

  @Test
  void aCloseWithoutAnAnswerKeepsRecoveringOnThePolicysSchedule() {
    rig.a.onCreate(
        new PspOutcome(
            dev.clearway.core.channel.spi.ResultCertainty.PENDING,
            "NOTPAY",
            null,
            null,
            false,
            true,
            "req",
            null));
    gateway.pay(charge("t_15"));
    rig.a.closeAnswer = PspOutcome.unknown("IO_ERROR");

    assertThat(gateway.closePayment("t_15").certainty()).isEqualTo(Certainty.UNKNOWN);

    assertThat(rig.text("SELECT status FROM recovery_task")).isEqualTo("READY");
    assertThat(rig.stores.attempts().attempts("t_15").get(0).status())
        .isEqualTo(AttemptStatus.PENDING);
    assertThat(rig.stores.orders().order("t_15").orElseThrow().closed()).isFalse();
  }

  @Test
  void aSuccessForAnotherAmountIsNotAcceptedAndGoesToAPerson() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    rig.a.onRetrieve(ScriptedPsp.success().withAmount(999L)); // the attempt asked for 1,000
    gateway.pay(charge("t_16"));
    rig.clock.advance(Duration.ofMinutes(1));

    worker.runOnce(pool);

    assertThat(rig.stores.attempts().attempts("t_16").get(0).status())
        .isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(rig.text("SELECT status FROM recovery_task")).isEqualTo("MANUAL");
    assertThat(rig.text("SELECT last_error FROM recovery_task")).isEqualTo("AMOUNT_MISMATCH");
    WalletResult seen = gateway.queryPayment("t_16");
    assertThat(seen.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(seen.errorCode()).isEqualTo("AMOUNT_MISMATCH");
    assertThat(rig.count("SELECT count(*) FROM outbox_event")).isZero();
  }

  @Test
  void aSuccessForTheSameAmountIsAccepted() {
    rig.a.onCreate(ScriptedPsp.success().withAmount(1_000L));

    assertThat(gateway.pay(charge("t_17")).certainty()).isEqualTo(Certainty.SUCCESS);
  }
}
