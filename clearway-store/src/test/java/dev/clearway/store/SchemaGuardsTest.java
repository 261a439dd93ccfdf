package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.store.testing.FlowRowInsert;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Predicate;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The money-safety guarantees the schema itself gives, on whichever database the tests run on (the
 * embedded PostgreSQL, or MariaDB under the profile {@code mariadb}): raw SQL that bypasses every
 * store is refused an illegal edge, a change of a terminal row, a change of the frozen amount, a
 * second live attempt of a goal and a second row with one order number.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class SchemaGuardsTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123456Z");

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void anIllegalEdgeIsRefused() throws SQLException {
    long id = insertFlow("goal-1", 1, "WAIT_PAY", "t-1");

    assertRefused(
        () ->
            exec(
                "UPDATE pay_flow_state SET status = 'PAYED', version = version + 1 WHERE id = ?",
                id),
        SqlErrors::isCheckViolation,
        "illegal transition WAIT_PAY -> PAYED");

    assertThat(status(id)).isEqualTo("WAIT_PAY");
  }

  @Test
  void aTerminalRowNeverChangesStatus() throws SQLException {
    long id = insertFlow("goal-1", 1, "WAIT_PAY", "t-1");
    assertThat(
            exec(
                "UPDATE pay_flow_state SET status = 'CLOSED', version = version + 1 WHERE id = ?",
                id))
        .isEqualTo(1);

    assertRefused(
        () ->
            exec(
                "UPDATE pay_flow_state SET status = 'PAYING', version = version + 1 WHERE id = ?",
                id),
        SqlErrors::isCheckViolation,
        "terminal status CLOSED cannot change to PAYING");
    assertRefused(
        () -> exec("DELETE FROM pay_flow_state WHERE id = ?", id),
        SqlErrors::isCheckViolation,
        "rows are never deleted");

    assertThat(status(id)).isEqualTo("CLOSED");
  }

  @Test
  void aTransitionMustBumpTheVersionByOne() throws SQLException {
    long id = insertFlow("goal-1", 1, "WAIT_PAY", "t-1");

    assertRefused(
        () -> exec("UPDATE pay_flow_state SET status = 'PAYING' WHERE id = ?", id),
        SqlErrors::isCheckViolation,
        "bump the version by one");
  }

  @Test
  void theAmountAndTheOrderNumbersAreFrozen() throws SQLException {
    long id = insertFlow("goal-1", 1, "WAIT_PAY", "t-1");

    assertRefused(
        () -> exec("UPDATE pay_flow_fact SET amount = amount + 1 WHERE id = ?", id),
        SqlErrors::isCheckViolation,
        "identity and amount are frozen");
    assertRefused(
        () ->
            exec(
                "UPDATE pay_flow_fact SET trade_order_no = 't-2', refund_order_no = 'r_t-2' WHERE id = ?",
                id),
        SqlErrors::isCheckViolation,
        "order numbers are frozen");

    assertThat(count("SELECT COUNT(*) FROM pay_flow WHERE id = ? AND amount = 1000", id))
        .isEqualTo(1);
  }

  @Test
  void aGoalHasAtMostOneLiveAttempt() throws SQLException {
    long first = insertFlow("goal-1", 1, "WAIT_PAY", "t-1");

    assertRefused(
        () -> insertFlow("goal-1", 2, "WAIT_PAY", "t-2"),
        SqlErrors::isUniqueViolation,
        "uk_live_attempt");

    // Once the first attempt has definitely failed, the goal may start another.
    exec("UPDATE pay_flow_state SET status = 'CLOSED', version = version + 1 WHERE id = ?", first);
    long second = insertFlow("goal-1", 2, "WAIT_PAY", "t-2");
    assertThat(second).isNotEqualTo(first);
    // ... and only one: a third live attempt beside the second is refused again.
    assertRefused(
        () -> insertFlow("goal-1", 3, "WAIT_PAY", "t-3"),
        SqlErrors::isUniqueViolation,
        "uk_live_attempt");
  }

  @Test
  void orderNumbersAreUniqueAndCompareByteForByte() throws SQLException {
    insertFlow("goal-1", 1, "WAIT_PAY", "t-1");

    assertRefused(
        () -> insertFlow("goal-2", 1, "WAIT_PAY", "t-1"),
        SqlErrors::isUniqueViolation,
        "uk_trade_order_no");
    // Keys differing only in case are different keys, as in PostgreSQL.
    insertFlow("GOAL-1", 1, "WAIT_PAY", "T-1");
    assertThat(count("SELECT COUNT(*) FROM pay_flow WHERE biz_key = ?", "goal-1")).isEqualTo(1);
  }

  @Test
  void theCompensationRefundNumberFollowsTheTradeNumber() {
    assertRefused(
        () ->
            exec(
                "INSERT INTO pay_flow_fact (merchant_id, user_id, scene, biz_key, attempt_no,"
                    + " trade_order_no, refund_order_no, amount, currency, biz_deadline_time,"
                    + " created_at) VALUES ('m1', 7, 'shop', 'goal-9', 1, 't-9', 'r_other', 1000,"
                    + " 'EUR', ?, ?)",
                Sql.ts(T0),
                Sql.ts(T0)),
        SqlErrors::isCheckViolation,
        "ck_refund_order_no");
  }

  @Test
  void timesKeepTheirInstantToTheMicrosecond() throws SQLException {
    long id = insertFlow("goal-1", 1, "WAIT_PAY", "t-1");

    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT created_at FROM pay_flow WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(FlowRows.instant(rs, "created_at")).isEqualTo(T0.truncatedTo(ChronoUnit.MICROS));
      }
    }
  }

  private static void assertRefused(
      ThrowingCallable sql, Predicate<SQLException> kind, String message) {
    assertThatThrownBy(sql)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(kind.test((SQLException) e)).as(e.toString()).isTrue());
  }

  private static long insertFlow(String bizKey, int attemptNo, String status, String trade)
      throws SQLException {
    return FlowRowInsert.of(bizKey, attemptNo, status, T0)
        .trade(trade)
        .insert(TestDatabase.get().dataSource());
  }

  private static int exec(String sql, Object... params) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      return ps.executeUpdate();
    }
  }

  private static long count(String sql, Object... params) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static String status(long id) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT status FROM pay_flow WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }
}
