package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.history;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.move;
import static dev.clearway.store.StoreFixtures.newGoal;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.payment;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * createStarted: creation and WAIT_PAY to PAYING in one commit (one statement on PostgreSQL, one
 * transaction on the MySQL family), against a real database.
 */
class JdbcFlowStoreStartTest {

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  @Tag(TestDatabase.MYSQL_FAMILY)
  void aStartedAttemptIsPayingAtVersionOneWithTheHistoryOfBothSteps() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    Lease lease = lease("creator/1", now);

    CreateResult result = store().createStarted(payment(goal, now), lease, now);

    assertThat(result.created()).isTrue();
    PayFlow f = result.flow();
    assertThat(f.status()).isEqualTo(FlowStatus.PAYING);
    assertThat(f.version()).isEqualTo(1);
    assertThat(f.attemptNo()).isEqualTo(1);
    assertThat(f.leaseOwner()).isEqualTo(lease.token());
    assertThat(f.nextRetryTime()).isEqualTo(lease.until());
    assertThat(f.updatedAt()).isEqualTo(now);
    OrderNumbers expected = OrderNumbers.derive(goal.userId(), f.id());
    assertThat(f.tradeOrderNo()).isEqualTo(expected.tradeOrderNo());
    assertThat(f.refundOrderNo()).isEqualTo(expected.refundOrderNo());
    assertThat(reload(f)).isEqualTo(f);
    assertThat(history(f.id()))
        .extracting(h -> tuple(h.fromStatus(), h.toStatus(), h.version(), h.resultClass()))
        .containsExactly(
            tuple(null, "WAIT_PAY", 0L, null), tuple("WAIT_PAY", "PAYING", 1L, "START_PAY"));
    assertThat(history(f.id()))
        .allSatisfy(
            h -> {
              assertThat(h.tradeOrderNo()).isEqualTo(expected.tradeOrderNo());
              assertThat(h.triggerSource()).isEqualTo("SYNC");
              assertThat(h.createdAt()).isEqualTo(now);
            });
    // the guarded transitions go on from there
    PayFlow payed = move(f, FlowStatus.PAYED, now.plusSeconds(1));
    assertThat(payed.version()).isEqualTo(2);
  }

  @Test
  @Tag(TestDatabase.MYSQL_FAMILY)
  void aGoalWithALiveAttemptGetsThatAttemptAndNothingIsWritten() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    PayFlow first = store().createStarted(payment(goal, now), lease("a", now), now).flow();

    Instant later = now.plusSeconds(2);
    CreateResult again = store().createStarted(payment(goal, later), lease("b", later), later);

    assertThat(again.created()).isFalse();
    assertThat(again.flow()).isEqualTo(first);
    assertThat(store().findByGoal(goal)).containsExactly(first);
    assertThat(history(first.id())).hasSize(2);
  }

  @Test
  void theDatabaseDerivesTheTradeOrderNumberAsTheEngineDoes() throws Exception {
    long seed = Long.getLong("clearway.seed", System.nanoTime());
    Random random = new Random(seed);
    List<long[]> cases = new ArrayList<>();
    long[] edges = {0, 1, 35, 36, 1_295, 1_296, -1, -36, Long.MAX_VALUE, Long.MIN_VALUE};
    for (long a : edges) {
      for (long b : edges) {
        cases.add(new long[] {a, b});
      }
    }
    for (int i = 0; i < 500; i++) {
      cases.add(new long[] {random.nextLong(), random.nextLong() >>> random.nextInt(64)});
    }
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT pay_flow_trade_order_no(?, ?)")) {
      for (long[] k : cases) {
        ps.setLong(1, k[0]);
        ps.setLong(2, k[1]);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertThat(rs.getString(1))
              .as("user %d, flow %d (seed %d)", k[0], k[1], seed)
              .isEqualTo(OrderNumbers.derive(k[0], k[1]).tradeOrderNo());
        }
      }
    }
  }
}
