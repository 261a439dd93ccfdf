package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.port.AttemptStore.AttemptChange;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.port.AttemptStore.RecordResult;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.store.Database;
import dev.clearway.store.channel.JdbcChannelOps;
import dev.clearway.store.channel.JdbcChannelQueues;
import dev.clearway.store.channel.JdbcChannelStores;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The channel stores (orders, attempts, their history, evidence and recovery tasks) on the sharded
 * URL: every statement about one payment reaches its own shard only, one live attempt per order
 * holds on every shard, and a claim round covers every shard.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedChannelStoresTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final Pattern SHARDED =
      Pattern.compile(
          "\\b(payment_order|payment_attempt|payment_attempt_history|provider_evidence"
              + "|recovery_task)_(\\d)\\b");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final ChannelStores stores =
      JdbcChannelStores.create(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncateAll(ShardedTestDatabase.CHANNEL_TABLES, List.of("outbox_event"));
    CardAccount.open(stores, "acct_1");
  }

  /** The trade order number of a flow of {@code shard}, as the flow store derives it. */
  private static String trade(int shard, long n) {
    return OrderNumbers.derive(7, ((long) shard << 48) | n).tradeOrderNo();
  }

  private Optional<Attempt> attempt(String trade, int seq) {
    return stores
        .attempts()
        .insertAttempt(
            new NewAttempt(
                trade,
                1,
                seq == 1 ? AttemptOrigin.INITIAL : AttemptOrigin.FAILOVER,
                seq == 1 ? null : 1L,
                "",
                new Attempt.Money(500, "EUR", "pm_card_visa"),
                id -> new String[] {"k" + id, "0".repeat(64)}),
            new NewTask("RETRIEVE", T0.plusSeconds(10), "v1", "creator/1"),
            T0);
  }

  @Test
  void everyStatementAboutOnePaymentReachesItsOwnShardOnly() {
    for (int shard = 0; shard < 4; shard++) {
      String trade = trade(shard, 100 + shard);
      List<SqlLog.Routed> log =
          SqlLog.capture(
              () -> {
                stores.orders().openOrder(new PaymentOrder(trade, 500, "EUR", "card", false), T0);
                Attempt a = attempt(trade, 1).orElseThrow();
                stores.attempts().attempt(a.id()).orElseThrow();
                return stores.orders().order(trade).orElseThrow();
              });
      int expected = shard;
      assertThat(log).isNotEmpty();
      System.out.printf(
          "sharded payment on shard %d: %d statements, physical tables per statement %s%n",
          shard, log.size(), log.stream().map(SqlLog.Routed::shards).distinct().toList());
      for (SqlLog.Routed statement : log) {
        assertThat(statement.actual()).as(statement.logic()).hasSize(1);
        var m = SHARDED.matcher(statement.actual().get(0));
        if (m.find()) {
          String ds = statement.actual().get(0).substring(0, 4);
          int reached = Integer.parseInt(ds.substring(3)) * 2 + Integer.parseInt(m.group(2));
          assertThat(reached).as(statement.actual().get(0)).isEqualTo(expected);
        }
      }
    }
    for (int ds = 0; ds < 2; ds++) {
      for (int t = 0; t < 2; t++) {
        long shard = ds * 2L + t;
        assertThat(
                db.physicalCount(
                    ds,
                    "SELECT count(*) FROM payment_attempt_"
                        + t
                        + " WHERE id >> 48 = "
                        + shard
                        + " AND trade_order_no LIKE 't\\_%'"))
            .as("attempt of shard %d on ds_%d.payment_attempt_%d", shard, ds, t)
            .isEqualTo(1);
      }
    }
  }

  @Test
  void oneLiveAttemptPerOrderHoldsOnEveryShard() {
    for (int shard = 0; shard < 4; shard++) {
      String trade = trade(shard, 200 + shard);
      stores.orders().openOrder(new PaymentOrder(trade, 500, "EUR", "card", false), T0);
      assertThat(attempt(trade, 1)).isPresent();
      assertThat(attempt(trade, 2)).as("second live attempt on shard %d", shard).isEmpty();
    }
  }

  @Test
  void theConsoleFiguresAndTaskListCoverEveryShardEachRowOnce() {
    for (int shard = 0; shard < 4; shard++) {
      String trade = trade(shard, 400 + shard);
      stores.orders().openOrder(new PaymentOrder(trade, 500, "EUR", "card", false), T0);
      attempt(trade, 1).orElseThrow();
    }
    Instant now = T0.plusSeconds(60);
    JdbcChannelOps ops = new JdbcChannelOps(database.dataSource());
    JdbcChannelQueues queues = new JdbcChannelQueues(database.dataSource());

    List<JdbcChannelOps.AccountFigures> accounts = ops.accounts(now);
    JdbcChannelOps.Totals totals = ops.totals(now);
    List<JdbcChannelQueues.TaskRow> tasks = queues.tasks(null, 10, now);

    assertThat(accounts).hasSize(1);
    assertThat(
            accounts.get(0).attemptsByStatus().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(4);
    assertThat(accounts.get(0).openTasks()).isEqualTo(4);
    assertThat(accounts.get(0).oldestOpenTaskAgeSeconds()).isEqualTo(60);
    assertThat(totals.attempts()).isEqualTo(4);
    assertThat(totals.openTasks()).isEqualTo(4);
    assertThat(tasks).hasSize(4);
    assertThat(tasks).extracting(JdbcChannelQueues.TaskRow::taskId).doesNotHaveDuplicates();
    assertThat(tasks)
        .allSatisfy(
            t -> {
              assertThat(t.channel()).isEqualTo("stripe");
              assertThat(t.accountRef()).isEqualTo("acct_1");
            });
  }

  @Test
  void aClaimRoundCoversEveryShardAndUpdatesEachTaskOnItsShard() {
    Set<Integer> shards = new HashSet<>();
    for (int shard = 0; shard < 4; shard++) {
      for (int i = 0; i < 3; i++) {
        String trade = trade(shard, 300 + 10L * shard + i);
        stores.orders().openOrder(new PaymentOrder(trade, 500, "EUR", "card", false), T0);
        attempt(trade, 1).orElseThrow();
      }
    }
    Instant later = T0.plusSeconds(60);
    List<RecoveryTask> claimed =
        stores.tasks().claimDue("w/0/1", 100, Duration.ofSeconds(30), later);

    assertThat(claimed).hasSize(12);
    claimed.forEach(t -> shards.add((int) (t.attemptId() >>> 48)));
    assertThat(shards).containsExactlyInAnyOrder(0, 1, 2, 3);
    assertThat(claimed).allSatisfy(t -> assertThat(t.id() >>> 48).isEqualTo(t.attemptId() >>> 48));
    assertThat(stores.tasks().claimDue("w/0/2", 100, Duration.ofSeconds(30), later)).isEmpty();
  }

  @Test
  void aFinalAttemptsEventIsWrittenOnItsShardInItsTransaction() {
    for (int shard = 0; shard < 4; shard++) {
      String trade = trade(shard, 400 + shard);
      stores.orders().openOrder(new PaymentOrder(trade, 500, "EUR", "card", false), T0);
      Attempt a = attempt(trade, 1).orElseThrow();
      AttemptChange charged = ConfirmedCharges.succeeded(a, "pi_" + shard, T0);
      RecordResult[] result = new RecordResult[1];
      List<SqlLog.Routed> log =
          SqlLog.capture(() -> result[0] = stores.attempts().record(charged, T0));
      assertThat(result[0]).isEqualTo(RecordResult.RECORDED);
      assertThat(log).allSatisfy(r -> assertThat(r.actual()).as(r.logic()).hasSize(1));
      assertThat(db.eventsOnShard(shard, a.id(), "PaymentAttemptSucceeded"))
          .as("the attempt's event on shard %d", shard)
          .isEqualTo(1);
    }
  }
}
