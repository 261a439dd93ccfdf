package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.port.SweepStore.Cursor;
import dev.clearway.store.latecharge.JdbcLateChargeStore;
import dev.clearway.store.latecharge.JdbcSweepStore;
import dev.clearway.store.testing.FlowRowInsert;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The callback inbox and the late-charge sweep's stage lease, on whichever database the tests run
 * on: a replayed event is stored once, an event about a flow that ended unpaid records one
 * late-charge suspicion with it, and one sweeper at a time holds a stage.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class CallbackInboxTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private final JdbcCallbackInbox inbox =
      new JdbcCallbackInbox(TestDatabase.get().dataSource(), TestDatabase.get().dialect());
  private final JdbcLateChargeStore checks =
      new JdbcLateChargeStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());
  private final JdbcSweepStore sweep =
      new JdbcSweepStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
    TestDatabase.get().truncate("callback_inbox");
  }

  /** The tables reset() leaves alone are emptied again: later test classes count their rows. */
  @AfterEach
  void cleanUp() {
    reset();
  }

  @Test
  void aReplayIsStoredOnceAndAnUnpaidFlowGetsOneSuspicion() throws SQLException {
    long flow = endedUnpaidFlow();
    JdbcCallbackInbox.Event event =
        new JdbcCallbackInbox.Event(
            "wallet", "evt-1", "PAID", "t-1", null, flow, "ACCEPTED", "a".repeat(64), T0);

    assertThat(inbox.store(event)).isTrue();
    assertThat(inbox.store(event)).as("a replay").isFalse();

    assertThat(count("SELECT COUNT(*) FROM callback_inbox WHERE merchant_id = 'm1'")).isEqualTo(1);
    assertThat(checks.findByFlow(flow).orElseThrow().source()).isEqualTo(SuspicionSource.CALLBACK);
    assertThat(checks.suspect(flow, SuspicionSource.SWEEP, T0).orElseThrow().created()).isFalse();
    assertThat(count("SELECT COUNT(*) FROM late_charge_check")).isEqualTo(1);
  }

  @Test
  void oneSweeperAtATimeHoldsAStage() {
    Duration stage = Duration.ofMinutes(5);
    Cursor start = new Cursor(T0.minusSeconds(3_600), 0);

    assertThat(sweep.claimStage(stage, start, new Lease("a", T0.plusSeconds(30)), T0))
        .contains(start);
    assertThat(
            sweep.claimStage(stage, start, new Lease("b", T0.plusSeconds(40)), T0.plusSeconds(10)))
        .as("held by a")
        .isEmpty();
    assertThat(
            sweep.claimStage(stage, start, new Lease("b", T0.plusSeconds(90)), T0.plusSeconds(30)))
        .as("a's lease expired")
        .contains(start);
  }

  private static long endedUnpaidFlow() throws SQLException {
    return FlowRowInsert.of("goal-1", 1, "PAY_FAIL", T0)
        .trade("t-1")
        .version(2)
        .insert(TestDatabase.get().dataSource());
  }

  private static long count(String sql) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
