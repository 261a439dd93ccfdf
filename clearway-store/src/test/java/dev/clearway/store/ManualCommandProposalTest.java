package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.review.CommandKind;
import dev.clearway.store.JdbcReviewStore.Result;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Proposals and rejections of manual commands, on whichever database the tests run on: one open
 * proposal per flow (the database's uk_command_open), a decided one frees the flow for the next,
 * and every step leaves its audit row.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ManualCommandProposalTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private final JdbcReviewStore review = new JdbcReviewStore(TestDatabase.get().dataSource());

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
    TestDatabase.get().truncate("manual_audit", "manual_command");
  }

  /** The tables reset() leaves alone are emptied again: later test classes count their rows. */
  @AfterEach
  void cleanUp() {
    reset();
  }

  @Test
  void oneOpenProposalPerFlowAndARejectedOneFreesIt() throws SQLException {
    long flow = escalatedPayedFlow();

    Result first = propose(flow, "alice", T0);
    assertThat(first).isInstanceOf(Result.Done.class);
    assertThat(((Result.Done) first).command().state()).isEqualTo("PROPOSED");
    assertThat(((Result.Done) first).command().expectedStatus()).isEqualTo("PAYED");

    assertThat(propose(flow, "bob", T0.plusSeconds(1)))
        .isEqualTo(
            new Result.Refused("command_already_open", "the flow already has an open proposal"));

    long firstId = ((Result.Done) first).command().id();
    Result rejected = review.reject(firstId, "carol", "not enough evidence", T0.plusSeconds(2));
    assertThat(rejected).isInstanceOf(Result.Done.class);
    assertThat(((Result.Done) rejected).command().state()).isEqualTo("REJECTED");
    assertThat(((Result.Done) rejected).command().decidedAt()).isEqualTo(T0.plusSeconds(2));

    Result second = propose(flow, "bob", T0.plusSeconds(3));
    assertThat(second).isInstanceOf(Result.Done.class);
    assertThat(((Result.Done) second).command().id()).isNotEqualTo(firstId);
    assertThat(count("SELECT COUNT(*) FROM manual_audit WHERE flow_id = " + flow)).isEqualTo(3);
    assertThat(count("SELECT COUNT(*) FROM pay_flow WHERE status = 'PAYED'")).isEqualTo(1);
  }

  private Result propose(long flow, String operator, Instant now) {
    return review.propose(
        flow,
        CommandKind.CONFIRM_BIZ_SUCCESS,
        operator,
        "TICKET-1",
        "the merchant confirmed delivery",
        "merchant mail 2026-12-01",
        now);
  }

  /** A PAYED flow handed to a person, inserted directly (no flow store needed). */
  private static long escalatedPayedFlow() throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO pay_flow (merchant_id, user_id, scene, biz_key, attempt_no,"
                    + " trade_order_no, refund_order_no, status, version, amount, currency,"
                    + " biz_deadline_time, next_retry_time, review_state, review_reason,"
                    + " created_at, updated_at)"
                    + " VALUES ('m1', 7, 'shop', 'goal-1', 1, 't-1', 'r_t-1', 'PAYED', 2, 1000,"
                    + " 'EUR', ?, ?, 'ESCALATED', 'RETRY_BUDGET_SPENT', ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
      for (int i = 1; i <= 4; i++) {
        ps.setObject(i, Sql.ts(T0));
      }
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
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
