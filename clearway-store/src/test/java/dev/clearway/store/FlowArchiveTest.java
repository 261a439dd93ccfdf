package dev.clearway.store;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.PAY_FAIL;
import static dev.clearway.store.StoreFixtures.count;
import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.exec;
import static dev.clearway.store.StoreFixtures.history;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.payment;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.BizKeyPage;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.retention.RetentionKind;
import dev.clearway.store.retention.JdbcRetentionStore;
import dev.clearway.store.review.HistoryEntry;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Moving terminal flows to the archive, and every read finding them there, on PostgreSQL (one
 * statement per batch) and the MySQL family (one transaction per batch).
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class FlowArchiveTest {
  private static final Duration AGE = Duration.ofDays(90);

  private final JdbcRetentionStore retention =
      new JdbcRetentionStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  private int archive(Instant now, int limit) {
    return retention.removeBatch(RetentionKind.FLOW_ARCHIVE, now.minus(AGE), limit);
  }

  @Test
  void anOldTerminalFlowMovesWithItsHistoryAndEveryReadStillFindsIt() throws Exception {
    Instant now = now();
    Instant old = now.minus(Duration.ofDays(100));
    PayFlow done = walk(created(old), old, PAYING, PAYED, BIZ_SUCCESS);
    List<StoreFixtures.HistoryRow> before = history(done.id());

    assertThat(archive(now, 10)).isEqualTo(1);

    assertThat(count("SELECT count(*) FROM pay_flow WHERE id = ?", done.id())).isZero();
    assertThat(count("SELECT count(*) FROM pay_flow_history WHERE flow_id = ?", done.id()))
        .isZero();
    assertThat(count("SELECT count(*) FROM pay_flow_history_archive WHERE flow_id = ?", done.id()))
        .isEqualTo(before.size());
    assertThat(store().find(done.id())).contains(done);
    assertThat(store().findByOrderNo(done.tradeOrderNo())).contains(done);
    assertThat(store().findByGoal(done.goal())).containsExactly(done);
    assertThat(
            store()
                .findByBizKey(
                    new BizKeyPage(
                        done.goal().merchant(),
                        done.goal().bizKey(),
                        null,
                        null,
                        Long.MAX_VALUE,
                        5)))
        .containsExactly(done);
    List<HistoryEntry> timeline =
        new JdbcReviewQueries(TestDatabase.get().dataSource())
            .history(done.id(), Long.MAX_VALUE, 10);
    assertThat(timeline).hasSize(before.size());
    assertThat(timeline.get(0).toStatus()).isEqualTo("BIZ_SUCCESS");
  }

  @Test
  void liveRecentAndStillReferencedFlowsStayHot() throws Exception {
    Instant now = now();
    Instant old = now.minus(Duration.ofDays(100));
    PayFlow live = walk(created(old), old, PAYING);
    PayFlow recent = walk(created(now), now, PAYING, PAYED, BIZ_SUCCESS);
    PayFlow refunded = walk(created(old), old, PAYING, PAYED, BIZ_SUCCESS);
    exec(
        "INSERT INTO refund_order (flow_id, seq, trade_order_no, refund_no, amount, currency, reason,"
            + " requested_by, idem_key, request_hash, status, next_retry_time, created_at,"
            + " updated_at) VALUES (?, 1, ?, ?, 100, 'CNY', 'r', 'default', 'k', ?, 'SUCCESS', ?, ?, ?)",
        refunded.id(),
        refunded.tradeOrderNo(),
        "a_" + refunded.tradeOrderNo() + "_1",
        "0".repeat(64),
        old,
        old,
        old);
    PayFlow escalated = walk(created(old), old, PAYING, PAY_FAIL);
    exec("UPDATE pay_flow SET review_state = 'ESCALATED' WHERE id = ?", escalated.id());

    assertThat(archive(now, 10)).isZero();
    assertThat(count("SELECT count(*) FROM pay_flow")).isEqualTo(4);
    assertThat(count("SELECT count(*) FROM pay_flow_archive")).isZero();
    assertThat(live.id()).isPositive();
    assertThat(recent.id()).isPositive();
  }

  @Test
  void aFlowWhoseOpenAttemptAWriterHoldsStaysHot() throws Exception {
    Instant now = now();
    Instant old = now.minus(Duration.ofDays(100));
    PayFlow failed = walk(created(old), old, PAYING, PAY_FAIL);
    TestDatabase.get().truncate("payment_attempt", "payment_order", "channel_account");
    exec(
        "INSERT INTO channel_account (id, channel, account_ref, failure_domain, payment_methods,"
            + " priority) VALUES (1, 'stripe', 'acct_a', 'psp:stripe-a', 'card', 1)");
    exec(
        "INSERT INTO payment_order (trade_order_no, amount, currency, payment_method, status,"
            + " created_at, updated_at) VALUES (?, 1500, 'EUR', 'card', 'OPEN', ?, ?)",
        failed.tradeOrderNo(),
        old,
        old);
    exec(
        "INSERT INTO payment_attempt (id, trade_order_no, seq, channel_account_id, origin,"
            + " provider_idempotency_key, create_request_hash, status, result_certainty, amount,"
            + " currency, payment_method, created_at, updated_at) VALUES (101, ?, 1, 1, 'INITIAL',"
            + " 'k101', ?, 'PENDING', 'PENDING', 1500, 'EUR', 'card', ?, ?)",
        failed.tradeOrderNo(),
        "0".repeat(64),
        old,
        old);

    // a writer holds the open attempt's row: the archiver must see it, not skip it
    try (Connection writer = TestDatabase.get().dataSource().getConnection();
        Statement st = writer.createStatement()) {
      writer.setAutoCommit(false);
      st.executeQuery("SELECT id FROM payment_attempt WHERE id = 101 FOR UPDATE").close();
      assertThat(archive(now, 10)).isZero();
      writer.rollback();
      writer.setAutoCommit(true);
    }
    assertThat(count("SELECT count(*) FROM pay_flow WHERE id = ?", failed.id())).isEqualTo(1);
  }

  @Test
  void batchesAreBoundedAndTheOldestGoFirst() throws Exception {
    Instant now = now();
    long[] ids = new long[5];
    for (int i = 0; i < 5; i++) {
      Instant ended = now.minus(Duration.ofDays(100 - i));
      ids[i] = walk(created(ended), ended, PAYING, PAY_FAIL).id();
    }
    assertThat(archive(now, 2)).isEqualTo(2);
    assertThat(count("SELECT count(*) FROM pay_flow_archive WHERE id IN (?, ?)", ids[0], ids[1]))
        .isEqualTo(2);
    assertThat(archive(now, 2)).isEqualTo(2);
    assertThat(archive(now, 2)).isEqualTo(1);
    assertThat(archive(now, 2)).isZero();
    assertThat(count("SELECT count(*) FROM pay_flow")).isZero();
  }

  @Test
  void aDoneGoalStaysDoneAfterArchivingAndAFailedGoalCountsItsArchivedAttempts() {
    Instant now = now();
    Instant old = now.minus(Duration.ofDays(100));
    PayFlow success = walk(created(old), old, PAYING, PAYED, BIZ_SUCCESS);
    PayFlow failed = walk(created(old), old, PAYING, PAY_FAIL);
    assertThat(archive(now, 10)).isEqualTo(2);

    CreateResult again = store().createAttempt(payment(success.goal(), now), lease("c2", now), now);
    assertThat(again.created()).isFalse();
    assertThat(again.flow()).isEqualTo(success);

    CreateResult retry = store().createAttempt(payment(failed.goal(), now), lease("c3", now), now);
    assertThat(retry.created()).isTrue();
    assertThat(retry.flow().attemptNo()).isEqualTo(2);
    assertThat(retry.flow().id()).isGreaterThan(success.id()).isGreaterThan(failed.id());
    assertThat(store().findByGoal(failed.goal()))
        .extracting(PayFlow::attemptNo)
        .containsExactly(1, 2);
  }

  @Test
  void onlyTheArchiverDeletesAndOnlyTerminalRowsAndTheArchiveIsFrozen() throws Exception {
    Instant now = now();
    Instant old = now.minus(Duration.ofDays(100));
    PayFlow done = walk(created(old), old, PAYING, PAY_FAIL);
    PayFlow live = walk(created(old), old, PAYING);

    // On the MySQL family the view pay_flow is for reading: a row is deleted from its state table.
    boolean mysql = TestDatabase.get().isMysqlFamily();
    String delete =
        mysql ? "DELETE FROM pay_flow_state WHERE id = " : "DELETE FROM pay_flow WHERE id = ";
    assertThatThrownBy(() -> exec(delete + done.id()))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("never deleted");
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      c.setAutoCommit(false);
      st.execute(mysql ? "SET @clearway_archiving = 'on'" : "SET LOCAL clearway.archiving = 'on'");
      assertThatThrownBy(() -> st.execute(delete + live.id()))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("never deleted");
      if (mysql) {
        // the facts of a flow whose state is still there stay, even for the archiving session
        assertThatThrownBy(() -> st.execute("DELETE FROM pay_flow_fact WHERE id = " + done.id()))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("never deleted");
        st.execute("SET @clearway_archiving = NULL");
      }
      c.rollback();
      c.setAutoCommit(true);
    }

    assertThat(archive(now, 10)).isEqualTo(1);
    assertThatThrownBy(
            () -> exec("UPDATE pay_flow_archive SET status = 'CLOSED' WHERE id = ?", done.id()))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("archived rows never change");
    assertThatThrownBy(() -> exec("DELETE FROM pay_flow_history_archive"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("archived rows never change");
  }

  @Test
  void theArchiveHasEveryColumnOfTheHotTables() throws Exception {
    String schema = TestDatabase.get().isMysqlFamily() ? "DATABASE()" : "current_schema()";
    String columns =
        ("SELECT count(*) FROM (SELECT column_name, data_type FROM information_schema.columns"
                + " WHERE table_schema = %1$s AND table_name = ?"
                + " EXCEPT SELECT column_name, data_type FROM information_schema.columns"
                + " WHERE table_schema = %1$s AND table_name = ?) d")
            .formatted(schema);
    assertThat(count(columns, "pay_flow", "pay_flow_archive")).isZero();
    assertThat(count(columns, "pay_flow_history", "pay_flow_history_archive")).isZero();
    assertThat(count(columns, "pay_flow_archive", "pay_flow")).isZero();
  }
}
