package dev.clearway.psp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The attempt's writers are fenced by its recovery task's lease, on the real database with scripted
 * PSPs: the create path holds it until its grace ends, a recovery worker after its claim, a flow's
 * replay after taking it. A writer whose lease was taken over changes nothing and is counted; a
 * paced call that cannot start within the lease is handed back, not waited for.
 */
class ChannelLeaseFencingTest {

  private static final Duration WORKER_LEASE = Duration.ofSeconds(45);

  private ChannelTestRig rig;
  private ChannelContext ctx;
  private ChannelGateway gateway;
  private final ExecutorService pool = Executors.newFixedThreadPool(4);

  @BeforeEach
  void setUp() {
    rig = new ChannelTestRig();
    use(ChannelTestRig.rule(List.of(RecoveryStrategy.RETRIEVE), Duration.ofHours(1)));
  }

  private void use(PolicyRule rule) {
    ctx = rig.context(rule);
    gateway = new ChannelGateway(ctx, PaymentMethods.fixed("card", "pm_card_visa"));
  }

  private RecoveryWorker worker(String owner, Duration lease) {
    return new RecoveryWorker(ctx, new RecoveryWorker.Settings(owner, 50, lease));
  }

  @AfterEach
  void tearDown() {
    pool.shutdownNow();
  }

  private static ChargeRequest charge(String trade) {
    return new ChargeRequest(trade, 7, 1_000, "EUR");
  }

  private Attempt only(String trade) {
    List<Attempt> attempts = rig.stores.attempts().attempts(trade);
    assertThat(attempts).hasSize(1);
    return attempts.get(0);
  }

  private List<RecoveryTask> claimAs(String owner) {
    return rig.stores.tasks().claimDue(owner, 10, WORKER_LEASE, rig.clock.instant());
  }

  @Test
  void theCreatesAnswerAfterItsTaskWasTakenOverIsNotRecorded() {
    List<RecoveryTask> takeover = new ArrayList<>();
    rig.a.onCreate(ScriptedPsp.success());
    // The create outlives its grace (30 s here): the recovery worker takes the task over.
    rig.a.duringNextCall =
        () -> {
          rig.clock.advance(Duration.ofSeconds(31));
          takeover.addAll(claimAs("w2"));
        };

    WalletResult answer = gateway.pay(charge("t_create"));

    assertThat(takeover).hasSize(1);
    assertThat(answer.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(only("t_create").status()).isEqualTo(AttemptStatus.CREATED);
    assertThat(rig.leasesLost).containsExactly("recovery_task");
    assertThat(rig.count("SELECT count(*) FROM provider_evidence")).isZero();
    assertThat(rig.text("SELECT status || ' ' || lease_owner FROM recovery_task"))
        .isEqualTo("LEASED " + takeover.get(0).leaseOwner());

    // The holder finds the same charge by the same key.
    rig.a.onRetrieve(ScriptedPsp.success());
    worker("w2", WORKER_LEASE).run(takeover.get(0));
    assertThat(only("t_create").status()).isEqualTo(AttemptStatus.SUCCEEDED);
    assertThat(rig.count("SELECT count(*) FROM outbox_event")).isEqualTo(1);
  }

  @Test
  void aRecoveryWorkerWhoseLeaseWasTakenOverCannotMoveTheAttempt() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_worker"));
    Attempt unknown = only("t_worker");
    rig.clock.advance(Duration.ofMinutes(1));
    List<RecoveryTask> takeover = new ArrayList<>();
    rig.a.onRetrieve(ScriptedPsp.success());
    rig.a.duringNextCall =
        () -> {
          rig.clock.advance(WORKER_LEASE.plusSeconds(1));
          takeover.addAll(claimAs("w2"));
        };

    assertThat(worker("w1", WORKER_LEASE).runOnce(pool)).isEqualTo(1);

    assertThat(takeover).hasSize(1);
    assertThat(only("t_worker")).isEqualTo(unknown);
    assertThat(rig.leasesLost).containsExactly("recovery_task");
    assertThat(rig.text("SELECT status || ' ' || lease_owner FROM recovery_task"))
        .isEqualTo("LEASED " + takeover.get(0).leaseOwner());

    rig.a.onRetrieve(ScriptedPsp.success());
    worker("w2", WORKER_LEASE).run(takeover.get(0));
    assertThat(only("t_worker").status()).isEqualTo(AttemptStatus.SUCCEEDED);
  }

  @Test
  void aStaleWorkerCannotRescheduleATaskAnotherWorkerTookOver() {
    use(ChannelTestRig.rule(List.of(RecoveryStrategy.WAIT_WEBHOOK), Duration.ofHours(1)));
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_wait"));
    rig.clock.advance(Duration.ofMinutes(1));
    RecoveryTask stale = claimAs("w1").get(0);
    rig.clock.advance(WORKER_LEASE.plusSeconds(1));
    RecoveryTask holder = claimAs("w2").get(0);

    worker("w1", WORKER_LEASE).run(stale);

    assertThat(rig.leasesLost).containsExactly("recovery_task");
    assertThat(rig.text("SELECT status || ' ' || lease_owner FROM recovery_task"))
        .isEqualTo("LEASED " + holder.leaseOwner());
  }

  @Test
  void aFlowsReplayIsNotSentWhileARecoveryWorkerHoldsTheAttempt() {
    rig.a.onCreate(PspOutcome.unknown("read_timeout"), ScriptedPsp.success());
    gateway.pay(charge("t_replay"));
    rig.clock.advance(Duration.ofMinutes(1));
    assertThat(claimAs("w1")).hasSize(1);

    WalletResult again = gateway.pay(charge("t_replay"));

    assertThat(again.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(rig.a.creates).hasSize(1);
    rig.clock.advance(WORKER_LEASE.plusSeconds(1)); // the worker died: its lease expires
    assertThat(gateway.pay(charge("t_replay")).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(rig.a.creates).hasSize(2);
  }

  @Test
  void aPacingWaitLongerThanTheRemainingLeaseReschedulesTheTaskInsteadOfWaiting() {
    // One query per second on the account, and a worker lease of 100 ms: of two due tasks, one
    // gets the free slot; the other's slot would start after its lease, so it is handed back.
    use(
        new PolicyRule(
            new RuleMatch("stripe", "card", Operation.CREATE),
            List.of(RecoveryStrategy.RETRIEVE),
            List.of(Duration.ofSeconds(1)),
            Duration.ofHours(1),
            1,
            4));
    rig.a.onCreate(PspOutcome.unknown("read_timeout"), PspOutcome.unknown("read_timeout"));
    gateway.pay(charge("t_pace_1"));
    gateway.pay(charge("t_pace_2"));
    rig.clock.advance(Duration.ofMinutes(1));

    assertThat(worker("w1", Duration.ofMillis(100)).runOnce(pool)).isEqualTo(2);

    assertThat(rig.a.count("retrieve")).isEqualTo(1);
    assertThat(
            rig.count(
                "SELECT count(*) FROM recovery_task WHERE status = 'READY'"
                    + " AND lease_owner IS NULL AND last_error = '"
                    + PacedRateLimiter.PAST_LEASE
                    + "'"))
        .isEqualTo(1);
  }

  @Test
  void aFlowRefundWhoseLeaseIsOverIsNotSentAndAnswersUnknown() {
    rig.a.onCreate(ScriptedPsp.success());
    assertThat(gateway.pay(charge("t_refund")).certainty()).isEqualTo(Certainty.SUCCESS);
    RefundRequest refund = new RefundRequest("r_t_refund", "t_refund", 1_000, "EUR");

    WalletResult late = gateway.refund(refund, rig.clock.instant().minusMillis(1));

    assertThat(late.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(late.errorCode()).isEqualTo(PacedRateLimiter.PAST_LEASE);
    assertThat(rig.a.count("refund")).isZero();
    assertThat(gateway.refund(refund, rig.clock.instant().plusSeconds(30)).certainty())
        .isEqualTo(Certainty.SUCCESS);
    assertThat(rig.a.count("refund")).isEqualTo(1);
  }
}
