package dev.clearway.psp.engine;

import static dev.clearway.core.channel.spi.ResultCertainty.DEFINITE_FAILURE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A replay refused before it executed ("channel unavailable" during an outage) proves nothing about
 * the original create, which may have executed or be waiting for the customer: the attempt keeps
 * its status and nothing fails over.
 */
class ReplayRefusedTest {

  private ChannelTestRig rig;
  private ChannelContext ctx;
  private ChannelGateway gateway;

  @BeforeEach
  void setUp() {
    rig = new ChannelTestRig();
    ctx =
        rig.context(
            ChannelTestRig.rule(List.of(RecoveryStrategy.IDEMPOTENT_REPLAY), Duration.ofHours(1)));
    gateway = new ChannelGateway(ctx, PaymentMethods.fixed("card", "pm_card_visa"));
  }

  private static ChargeRequest charge(String trade) {
    return new ChargeRequest(trade, 7, 1_000, "EUR");
  }

  @Test
  void aRefusedReplayOfAnUnknownCreateKeepsItUnknownAndDoesNotFailOver() {
    rig.a.onCreate(
        PspOutcome.unknown("read_timeout"),
        ScriptedPsp.of(DEFINITE_FAILURE, "channel_unavailable", true),
        ScriptedPsp.success());

    assertThat(gateway.pay(charge("t_r1")).certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.pay(charge("t_r1")).certainty()).isEqualTo(Certainty.UNKNOWN);

    List<Attempt> attempts = rig.stores.attempts().attempts("t_r1");
    assertThat(attempts).hasSize(1);
    assertThat(attempts.get(0).status()).isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(rig.b.calls).as("no failover while the original may have executed").isEmpty();

    assertThat(gateway.pay(charge("t_r1")).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(rig.stores.attempts().attempts("t_r1")).hasSize(1);
  }

  @Test
  void aRefusedReplayOfAPendingCreateKeepsItPending() {
    rig.a.onCreate(
        ScriptedPsp.of(dev.clearway.core.channel.spi.ResultCertainty.PENDING, "NOTPAY", false),
        ScriptedPsp.of(DEFINITE_FAILURE, "channel_unavailable", true));

    gateway.pay(charge("t_r2"));
    rig.clock.advance(Duration.ofMinutes(1));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      assertThat(
              new RecoveryWorker(ctx, new RecoveryWorker.Settings("w", 10, Duration.ofSeconds(45)))
                  .runOnce(pool))
          .isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }

    assertThat(rig.a.creates).as("the task replayed the create").hasSize(2);
    assertThat(rig.stores.attempts().attempts("t_r2").get(0).status())
        .isEqualTo(AttemptStatus.PENDING);
    assertThat(rig.b.calls).isEmpty();
  }

  @Test
  void aDeclineOnTheFirstCreateStillEndsTheAttempt() {
    rig.a.onCreate(ScriptedPsp.of(DEFINITE_FAILURE, "channel_unavailable", true));
    rig.b.onCreate(ScriptedPsp.success());

    assertThat(gateway.pay(charge("t_r3")).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(rig.stores.attempts().attempts("t_r3").get(0).status())
        .isEqualTo(AttemptStatus.FAILED);
  }
}
