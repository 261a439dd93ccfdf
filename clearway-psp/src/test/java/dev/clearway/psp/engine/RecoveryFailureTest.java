package dev.clearway.psp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A recovery task that throws is reported with its cause (it used to vanish: every search by
 * merchant reference failed to record, since the strategy's name did not fit its column), and a
 * search by merchant reference records its evidence.
 */
class RecoveryFailureTest {

  private ChannelTestRig rig;
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @BeforeEach
  void setUp() {
    rig = new ChannelTestRig();
  }

  @AfterEach
  void tearDown() {
    pool.shutdownNow();
  }

  private RecoveryWorker worker(ChannelContext ctx) {
    return new RecoveryWorker(
        ctx,
        new RecoveryWorker.Settings("w1", 10, Duration.ofSeconds(45)),
        (loop, cause) -> failures.add(loop + ": " + cause.getMessage()));
  }

  private ChannelContext unknownCreate(RecoveryStrategy strategy, String trade) {
    ChannelContext ctx = rig.context(ChannelTestRig.rule(List.of(strategy), Duration.ofHours(1)));
    rig.a.onCreate(PspOutcome.unknown("read_timeout"));
    new ChannelGateway(ctx, PaymentMethods.fixed("card", "pm_card_visa"))
        .pay(new ChargeRequest(trade, 7, 1_000, "EUR"));
    rig.clock.advance(Duration.ofMinutes(1));
    return ctx;
  }

  @Test
  void aSearchByMerchantReferenceRecordsItsEvidence() {
    ChannelContext ctx = unknownCreate(RecoveryStrategy.MERCHANT_REFERENCE_SEARCH, "t_search");
    rig.a.onRetrieve(ScriptedPsp.success());

    assertThat(worker(ctx).runOnce(pool)).isEqualTo(1);

    assertThat(failures).isEmpty();
    assertThat(rig.stores.attempts().attempts("t_search").get(0).status())
        .isEqualTo(AttemptStatus.SUCCEEDED);
    assertThat(
            rig.count(
                "SELECT count(*) FROM provider_evidence"
                    + " WHERE operation = 'MERCHANT_REFERENCE_SEARCH'"))
        .isEqualTo(1);
  }

  @Test
  void aTaskThatThrowsIsReportedAndTheRoundGoesOn() {
    ChannelContext ctx = unknownCreate(RecoveryStrategy.RETRIEVE, "t_throws");
    rig.a.retrieveThrows = true;

    assertThat(worker(ctx).runOnce(pool)).isEqualTo(1);

    assertThat(failures).containsExactly("channel-recovery-task: retrieve exploded");
    assertThat(rig.stores.attempts().attempts("t_throws").get(0).status())
        .isEqualTo(AttemptStatus.UNKNOWN);
  }
}
