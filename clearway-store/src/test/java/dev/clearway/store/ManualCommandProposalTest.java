package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.review.CommandKind;
import dev.clearway.store.JdbcReviewStore.Result;
import dev.clearway.store.testing.FlowRowInsert;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
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
    return FlowRowInsert.of("goal-1", 1, "PAYED", T0)
        .trade("t-1")
        .version(2)
        .review("ESCALATED", "RETRY_BUDGET_SPENT")
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
