package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On the sharded URL a creation and a transition return the row they wrote without reading it back:
 * the row returned is the row stored, column for column (instants at the columns' microseconds),
 * and a column changed under the writer since its read (a cancel request) still reaches the row the
 * transition returns.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedWrittenRowTest {

  /** Nanoseconds the DATETIME(6) columns cannot hold. */
  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00.123456789Z");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore store = new JdbcFlowStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncate(ShardedTestDatabase.FLOW_TABLES);
  }

  private PayFlow create(String bizKey, Instant now) {
    GoalKey goal = ShardedGoals.on(1, bizKey);
    NewPayment payment = new NewPayment(goal, 2_500L, "EUR", now.plus(Duration.ofHours(1)));
    return store.createAttempt(payment, new Lease("creator", now.plusSeconds(30)), now).flow();
  }

  private static TransitionWrite write(PayFlow from, FlowStatus to, Instant now) {
    return new TransitionWrite(
        from,
        to,
        to == FlowStatus.PAY_FAIL ? "DECLINED" : null,
        now.plusSeconds(30),
        "mover",
        new HistoryNote(TriggerSource.MANUAL, "req-" + to, "TEST", 7),
        now,
        from.leaseOwner());
  }

  @Test
  void creationAndTransitionsReturnTheRowsAsStoredWithoutReadingThemBack() {
    PayFlow created = create("known-row", T0);
    assertThat(created).isEqualTo(store.find(created.id()).orElseThrow());
    PayFlow f = created;
    for (FlowStatus to : List.of(FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS)) {
      PayFlow from = f;
      Instant now = T0.plusMillis(10 * from.version() + 10);
      List<PayFlow> returned = new ArrayList<>();
      List<SqlLog.Routed> log =
          SqlLog.capture(() -> returned.add(store.transition(write(from, to, now)).orElseThrow()));
      f = store.find(from.id()).orElseThrow();
      assertThat(returned).containsExactly(f);
      assertThat(f.status()).isEqualTo(to);
      assertThat(f.updatedAt()).isEqualTo(now.truncatedTo(ChronoUnit.MICROS));
      assertThat(log)
          .as("the CAS, the history row and (entering PAYED or BIZ_SUCCESS) the event; no read")
          .extracting(SqlLog.Routed::logic)
          .noneMatch(sql -> sql.stripLeading().startsWith("SELECT"))
          .hasSize(to == FlowStatus.PAYING ? 2 : 3);
      assertThat(store.transition(write(from, to, now))).as("the CAS still fences").isEmpty();
    }
    assertThat(
            db.physicalCount(
                0,
                "SELECT count(*) FROM pay_flow_history_1 WHERE flow_id = "
                    + f.id()
                    + " AND trade_order_no = '"
                    + f.tradeOrderNo()
                    + "'"))
        .isEqualTo(4);
  }

  @Test
  void theRowReturnedAfterACancelRecordedSinceTheReadHoldsTheCancel() {
    PayFlow waiting = create("cancel-under-writer", T0);
    PayFlow paying = store.transition(write(waiting, FlowStatus.PAYING, T0)).orElseThrow();
    assertThat(store.requestCancel(paying.id(), T0.plusSeconds(1))).isTrue();

    Optional<PayFlow> failed =
        store.transition(write(paying, FlowStatus.PAY_FAIL, T0.plusSeconds(2)));

    PayFlow stored = store.find(paying.id()).orElseThrow();
    assertThat(failed).contains(stored);
    assertThat(stored.cancelRequestedAt()).isNotNull();
    assertThat(stored.status()).isEqualTo(FlowStatus.PAY_FAIL);
  }
}
