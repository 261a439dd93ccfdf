package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.engine.CompensationWorker;
import dev.clearway.core.channel.port.ChannelRefundStore.ChannelRefund;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.port.CompensationStore.Compensation;
import dev.clearway.core.channel.spi.ClientAction;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.review.CompensationStatus;
import dev.clearway.store.Database;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.channel.JdbcOrderTimeline;
import dev.clearway.store.channel.JdbcOrderTimeline.AttemptTimeline;
import dev.clearway.store.channel.JdbcPaymentDetails;
import dev.clearway.store.channel.ManualChannelEffects;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The channel rows of one payment's attempt (its compensation, its channel refund, its client
 * action) on the sharded URL: each lands on the attempt's shard, every statement that names its key
 * reaches that one physical table, and the compensation claim covers every shard.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedChannelRowsTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final List<String> ROWS =
      List.of("attempt_compensation", "channel_refund", "payment_attempt_action");
  private static final Pattern SHARDED =
      Pattern.compile(
          "\\b(payment_order|payment_attempt|payment_attempt_history|provider_evidence|recovery_task"
              + "|outbox_event|pay_flow_fact"
              + "|attempt_compensation|channel_refund|payment_attempt_action)_(\\d)\\b");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final ChannelStores stores =
      JdbcChannelStores.create(database.dataSource(), database.dialect());
  private final JdbcPaymentDetails details =
      new JdbcPaymentDetails(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncateAll(ShardedTestDatabase.CHANNEL_TABLES, List.of("outbox_event"));
    CardAccount.open(stores, "acct_1");
  }

  /** An attempt of an order whose trade number derives from a flow id of {@code shard}. */
  private Attempt attemptOn(int shard, long n) {
    String trade = OrderNumbers.derive(7, ((long) shard << 48) | n).tradeOrderNo();
    return OpenAttempts.first(stores, trade, 500, T0);
  }

  private void openCompensation(Attempt a) {
    assertThat(
            stores
                .compensations()
                .openCompensation(
                    Compensation.opening(
                        a.id(),
                        a.tradeOrderNo(),
                        CompensationWorker.refundNo(a),
                        500,
                        "LATE_SUCCESS"),
                    T0))
        .isTrue();
  }

  @Test
  void eachRowOfAnAttemptLandsOnItsShardAndItsKeyReachesThatShardOnly() {
    for (int shard = 0; shard < 4; shard++) {
      Attempt a = attemptOn(shard, 100 + shard);
      String refundOrderNo = "r_" + a.tradeOrderNo();
      ChannelRefund[] refund = new ChannelRefund[1];
      List<SqlLog.Routed> log =
          SqlLog.capture(
              () -> {
                openCompensation(a);
                refund[0] = stores.refunds().channelRefund(refundOrderNo, a.id(), 500, T0);
                assertThat(stores.refunds().nextRefundGeneration(refund[0], T0)).isTrue();
                refund[0] = stores.refunds().findChannelRefund(refundOrderNo).orElseThrow();
                details.saveAction(
                    a.id(),
                    new ClientAction(
                        ClientAction.Kind.STRIPE_NEXT_ACTION, Map.of("url", "https://x/" + a.id())),
                    T0);
                return details.action(a.id()).orElseThrow();
              });
      assertThat(refund[0].generation()).isEqualTo(2);
      assertThat(refund[0].attemptId()).isEqualTo(a.id());
      assertOneShard(log, shard, 6);
      for (String table : ROWS) {
        assertThat(physicalRows(table, shard, a.id()))
            .as("%s of the attempt on shard %d", table, shard)
            .isEqualTo(1);
      }
    }
    for (String table : ROWS) {
      assertThat(allRows(table)).as("%s rows on all shards", table).isEqualTo(4);
    }
  }

  @Test
  void aCompensationClaimCoversEveryShardAndItsSettlementStaysOnItsShard() {
    List<Attempt> attempts = new ArrayList<>();
    for (int shard = 0; shard < 4; shard++) {
      Attempt a = attemptOn(shard, 200 + shard);
      openCompensation(a);
      attempts.add(a);
    }
    List<Compensation> claimed =
        stores.compensations().claimCompensations(100, Duration.ofSeconds(30), T0.plusSeconds(1));
    Set<Integer> shards = new HashSet<>();
    claimed.forEach(k -> shards.add(ShardKeys.ofId(k.attemptId())));
    assertThat(shards).containsExactlyInAnyOrder(0, 1, 2, 3);
    assertThat(claimed).allSatisfy(k -> assertThat(k.version()).isEqualTo(1));

    for (Compensation k : claimed) {
      int shard = ShardKeys.ofId(k.attemptId());
      boolean[] settled = new boolean[1];
      List<SqlLog.Routed> log =
          SqlLog.capture(
              () ->
                  settled[0] =
                      stores
                          .compensations()
                          .updateCompensation(k, "REFUNDED", null, T0.plusSeconds(2), T0));
      assertThat(settled[0]).isTrue();
      assertOneShard(log, shard, 3);
      assertThat(db.eventsOnShard(shard, k.attemptId(), "DuplicateChargeRefunded"))
          .as("the settled compensation's event on shard %d", shard)
          .isEqualTo(1);
    }
    assertThat(
            stores
                .compensations()
                .claimCompensations(100, Duration.ofSeconds(30), T0.plusSeconds(60)))
        .isEmpty();
  }

  @Test
  void anAmountMismatchSettledByAPersonOpensItsCompensationOnTheAttemptsShard() {
    for (int shard = 0; shard < 4; shard++) {
      Attempt a = attemptOn(shard, 300 + shard);
      boolean[] settled = new boolean[1];
      List<SqlLog.Routed> log =
          SqlLog.capture(
              () -> {
                try (Connection c = database.dataSource().getConnection()) {
                  c.setAutoCommit(false);
                  Attempt locked =
                      ManualChannelEffects.lockAttempt(c, a.id()).orElseThrow().attempt();
                  settled[0] =
                      ManualChannelEffects.settleMismatch(
                          c, locked, CompensationStatus.PENDING, 600, "ref", "cmd/" + a.id(), T0);
                  c.commit();
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
                return settled[0];
              });
      assertThat(settled[0]).isTrue();
      assertOneShard(log, shard, 4);
      assertThat(physicalRows("attempt_compensation", shard, a.id()))
          .as("the mismatch's compensation on shard %d", shard)
          .isEqualTo(1);
    }
    assertThat(allRows("attempt_compensation")).isEqualTo(4);
  }

  @Test
  void anOrdersTimelineReadsItsShardAndTheSingleAccountOnly() {
    JdbcOrderTimeline timeline = new JdbcOrderTimeline(database.dataSource());
    for (int shard = 0; shard < 4; shard++) {
      Attempt a = attemptOn(shard, 400 + shard);
      openCompensation(a);
      List<AttemptTimeline> attempts = new ArrayList<>();
      List<SqlLog.Routed> log =
          SqlLog.capture(
              () ->
                  attempts.addAll(
                      timeline
                          .order(a.tradeOrderNo(), Integer.MAX_VALUE, 10, 10)
                          .orElseThrow()
                          .attempts()));
      assertThat(attempts).hasSize(1);
      AttemptTimeline t = attempts.get(0);
      assertThat(t.attemptId()).isEqualTo(a.id());
      assertThat(t.channel()).isEqualTo("stripe");
      assertThat(t.accountRef()).isEqualTo("acct_1");
      assertThat(t.recoveryTaskStatus()).isNotNull();
      assertThat(t.compensationStatus()).isEqualTo("PENDING");
      List<SqlLog.Routed> account =
          log.stream().filter(r -> r.logic().contains("FROM channel_account")).toList();
      assertThat(account).hasSize(1);
      assertThat(account.get(0).actual()).hasSize(1);
      assertThat(account.get(0).actual().get(0)).startsWith("ds_0 ");
      List<SqlLog.Routed> sharded = new ArrayList<>(log);
      sharded.removeAll(account);
      assertOneShard(sharded, shard, 4);
    }
  }

  /**
   * Every statement reached exactly one physical table, and every sharded table it named is the one
   * of {@code shard}; at least {@code minimum} statements were logged.
   */
  private static void assertOneShard(List<SqlLog.Routed> log, int shard, int minimum) {
    assertThat(log).hasSizeGreaterThanOrEqualTo(minimum);
    System.out.printf(
        "channel rows of shard %d: %d statements, physical tables per statement %s%n",
        shard, log.size(), log.stream().map(SqlLog.Routed::shards).distinct().toList());
    for (SqlLog.Routed statement : log) {
      assertThat(statement.actual()).as(statement.logic()).hasSize(1);
      String actual = statement.actual().get(0);
      int ds = Integer.parseInt(actual.substring(3, 4));
      Matcher m = SHARDED.matcher(actual);
      boolean found = false;
      while (m.find()) {
        found = true;
        assertThat(ds * 2 + Integer.parseInt(m.group(2))).as(actual).isEqualTo(shard);
      }
      assertThat(found).as("a sharded table in %s", actual).isTrue();
    }
  }

  private long physicalRows(String table, int shard, long attemptId) {
    return db.physicalCount(
        shard / 2,
        "SELECT count(*) FROM " + table + "_" + shard % 2 + " WHERE attempt_id = " + attemptId);
  }

  private long allRows(String table) {
    long n = 0;
    for (int ds = 0; ds < 2; ds++) {
      for (int t = 0; t < 2; t++) {
        n += db.physicalCount(ds, "SELECT count(*) FROM " + table + "_" + t);
      }
    }
    return n;
  }
}
