package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.port.AttemptStore.RecordResult;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.reconciliation.LocalSide;
import dev.clearway.store.refund.JdbcRefundStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The local side of reconciliation on the sharded URL for payments sent through the channel layer:
 * a lookup by attempt key finds the attempt on whichever shard holds it, with its flow, its account
 * (a single table of the first database) and its compensation state; the account-day's movements
 * hold every shard's charged attempts and succeeded refunds, and the wallet's day none of them.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedLocalSideTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final String ACCOUNT = "acct_1";

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore flows = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcRefundStore refunds =
      new JdbcRefundStore(database.dataSource(), database.dialect());
  private final ChannelStores channel =
      JdbcChannelStores.create(database.dataSource(), database.dialect());
  private final LocalSide locals =
      LocalSide.of(database.dataSource(), database.dialect(), "wallet");

  @BeforeEach
  void clean() {
    db.truncateAll(ShardedTestDatabase.CHANNEL_TABLES, ShardedTestDatabase.REFUND_AND_FLOW_TABLES);
    CardAccount.open(channel, ACCOUNT);
  }

  /** A paid flow of {@code shard} whose charge is an attempt recorded SUCCEEDED at T0. */
  private Attempt chargedAttempt(PayFlow flow, int shard) {
    String trade = flow.tradeOrderNo();
    Attempt a = OpenAttempts.first(channel, trade, 1_250, T0);
    RecordResult recorded =
        channel.attempts().record(ConfirmedCharges.succeeded(a, "pi_" + shard, T0), T0);
    assertThat(recorded).isEqualTo(RecordResult.RECORDED);
    return channel.attempts().attempt(a.id()).orElseThrow();
  }

  @Test
  void aChannelAccountsPaymentsAreFoundOnEveryShardByKeyAndInTheDay() {
    List<PayFlow> paid = new ArrayList<>();
    List<Attempt> attempts = new ArrayList<>();
    for (int shard = 0; shard < 4; shard++) {
      PayFlow f = SucceededFlows.create(flows, ShardedGoals.on(shard, "ch-" + shard), 1_250, T0);
      paid.add(f);
      attempts.add(chargedAttempt(f, shard));
    }
    CreateOutcome created =
        refunds.create(
            new NewRefund(paid.get(3).id(), 400, "returned", "m1", "k-refund"),
            new Lease("refunder", T0.plusSeconds(30)),
            T0);
    RefundOrder refund =
        RefundMoves.move(
            refunds,
            RefundMoves.move(
                refunds, ((CreateOutcome.Created) created).refund(), RefundStatus.PROCESSING, T0),
            RefundStatus.SUCCESS,
            T0);

    Attempt third = attempts.get(2);
    LocalFact byKey = locals.byAttemptKey(third.providerIdempotencyKey()).orElseThrow();
    assertThat(byKey.tradeOrderNo()).isEqualTo(paid.get(2).tradeOrderNo());
    assertThat(byKey.attempt().id()).isEqualTo(third.id());
    assertThat(byKey.attempt().status()).isEqualTo(AttemptStatus.SUCCEEDED);
    assertThat(byKey.channelAccount()).isEqualTo(ACCOUNT);
    assertThat(byKey.compensation()).isEqualTo(CompensationState.NONE);
    assertThat(locals.byTradeOrderNo(paid.get(0).tradeOrderNo()).orElseThrow().attemptKey())
        .isEqualTo(attempts.get(0).providerIdempotencyKey());
    List<String> keys =
        new ArrayList<>(attempts.stream().map(Attempt::providerIdempotencyKey).toList());
    keys.add("key-of-nobody");
    Map<String, LocalFact> keyed = locals.byAttemptKeys(keys);
    assertThat(keyed).hasSize(4);
    assertThat(locals.byTradeOrderNo("T-nobody")).isEmpty();
    LocalFact refundView = locals.byRefundOrderNo(refund.refundNo()).orElseThrow();
    assertThat(refundView.refund().status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(refundView.channelAccount()).isEqualTo(ACCOUNT);
    assertThat(locals.refundsOfPayment(paid.get(3).tradeOrderNo()))
        .extracting(v -> v.refund().refundOrderNo())
        .containsExactly(refund.refundNo());

    List<String> day = new ArrayList<>();
    try (Stream<LocalFact> movements =
        locals.movementsIn(ACCOUNT, T0.minus(Duration.ofHours(1)), T0.plusSeconds(3600))) {
      movements.forEach(
          m ->
              day.add(
                  m.tradeOrderNo() + (m.refund() == null ? "" : " " + m.refund().refundOrderNo())));
    }
    List<String> expected = new ArrayList<>(paid.stream().map(PayFlow::tradeOrderNo).toList());
    expected.add(paid.get(3).tradeOrderNo() + " " + refund.refundNo());
    assertThat(day).containsExactlyInAnyOrderElementsOf(expected);
    try (Stream<LocalFact> wallet =
        locals.movementsIn("wallet", T0.minus(Duration.ofHours(1)), T0.plusSeconds(3600))) {
      assertThat(wallet).as("flows charged through an attempt are not the wallet's").isEmpty();
    }
  }

  @Test
  void theDayIsReadInPagesThatContinueAfterTheLastRowAcrossShards() {
    // More payments than a page, all entering PAYED at the same instant: the pages continue by
    // id after the last row, over the four shards merged.
    int payments = 530;
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < payments; i++) {
      expected.add(
          SucceededFlows.create(flows, ShardedGoals.on(i % 4, "page-" + i), 1_000, T0)
              .tradeOrderNo());
    }
    List<String> day = new ArrayList<>();
    try (Stream<LocalFact> movements =
        locals.movementsIn("wallet", T0.minus(Duration.ofHours(1)), T0.plusSeconds(3600))) {
      movements.forEach(m -> day.add(m.tradeOrderNo()));
    }
    assertThat(day).hasSize(payments).containsExactlyInAnyOrderElementsOf(expected);
  }
}
