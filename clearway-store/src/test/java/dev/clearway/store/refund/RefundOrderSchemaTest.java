package dev.clearway.store.refund;

import static dev.clearway.store.refund.RefundFixtures.bizSuccess;
import static dev.clearway.store.refund.RefundFixtures.count;
import static dev.clearway.store.refund.RefundFixtures.created;
import static dev.clearway.store.refund.RefundFixtures.exec;
import static dev.clearway.store.refund.RefundFixtures.move;
import static dev.clearway.store.refund.RefundFixtures.now;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import dev.clearway.store.refund.RefundFixtures.RawSqlException;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The database's half of the refund state table: the guard trigger and the constraints hold against
 * raw SQL (scripts, bugs), whatever the code does.
 */
class RefundOrderSchemaTest {
  private static final String CHECK_VIOLATION = "23514";
  private static final String UNIQUE_VIOLATION = "23505";

  @BeforeEach
  void reset() {
    RefundFixtures.reset();
  }

  private static RefundOrder in(RefundStatus status, Instant now) {
    RefundOrder r = created(bizSuccess(now), 100, "k-" + status + "-" + System.nanoTime(), now);
    return switch (status) {
      case PENDING -> r;
      case PROCESSING -> move(r, RefundStatus.PROCESSING, now);
      case SUCCESS, FAIL, ABNORMAL -> move(move(r, RefundStatus.PROCESSING, now), status, now);
      case CLOSED -> move(r, RefundStatus.CLOSED, now);
    };
  }

  private static void rawMove(RefundOrder r, RefundStatus to) {
    exec(
        "UPDATE refund_order SET status = ?, version = version + 1 WHERE id = ?",
        to.name(),
        r.id());
  }

  @ParameterizedTest
  @EnumSource(RefundStatus.class)
  void theTriggerAcceptsExactlyTheEdgesOfTheTable(RefundStatus from) {
    Instant now = now();
    for (RefundStatus to : RefundStatus.values()) {
      if (to == from) {
        continue;
      }
      RefundOrder r = in(from, now);
      if (RefundTransitions.isLegal(from, to)) {
        rawMove(r, to);
        assertThat(
                count(
                    "SELECT count(*) FROM refund_order WHERE id = ? AND status = ?",
                    r.id(),
                    to.name()))
            .isEqualTo(1);
      } else {
        assertThatThrownBy(() -> rawMove(r, to))
            .as("%s -> %s", from, to)
            .isInstanceOf(RawSqlException.class)
            .hasMessageStartingWith(CHECK_VIOLATION)
            .hasMessageContaining(from.isTerminal() ? "terminal status" : "illegal transition");
      }
    }
  }

  @Test
  void aTransitionMustBumpTheVersionByOne() {
    RefundOrder r = in(RefundStatus.PENDING, now());

    assertThatThrownBy(
            () -> exec("UPDATE refund_order SET status = 'PROCESSING' WHERE id = ?", r.id()))
        .hasMessageStartingWith(CHECK_VIOLATION)
        .hasMessageContaining("version");
  }

  @Test
  void identityAndMoneyAreFrozenAndRowsAreNeverDeleted() {
    RefundOrder r = in(RefundStatus.PROCESSING, now());

    for (String set :
        new String[] {
          "amount = amount + 1",
          "flow_id = flow_id + 1",
          "seq = seq + 1",
          "refund_no = refund_no || 'x'",
          "currency = 'USD'",
          "reason = 'other'",
          "requested_by = 'someone'",
          "idem_key = 'other'"
        }) {
      assertThatThrownBy(() -> exec("UPDATE refund_order SET " + set + " WHERE id = ?", r.id()))
          .as(set)
          .hasMessageStartingWith(CHECK_VIOLATION);
    }
    assertThatThrownBy(() -> exec("DELETE FROM refund_order WHERE id = ?", r.id()))
        .hasMessageContaining("never deleted");
    assertThat(count("SELECT count(*) FROM refund_order")).isEqualTo(1);
  }

  @Test
  void theNumberIsBoundToTradeAndSeqAndUniquePerFlowAndSeq() {
    Instant now = now();
    PayFlow flow = bizSuccess(now);
    String insert =
        """
        INSERT INTO refund_order (flow_id, seq, trade_order_no, refund_no, amount, currency,
                                  reason, requested_by, idem_key, request_hash, status,
                                  next_retry_time, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, 'CNY', 'r', 'm', ?, repeat('0', 64), 'PENDING', ?, ?, ?)
        """;
    String trade = flow.tradeOrderNo();

    // the compensation refund's number is never an after-sales number
    assertThatThrownBy(
            () -> exec(insert, flow.id(), 1, trade, "r_" + trade, 10L, "k1", now, now, now))
        .hasMessageStartingWith(CHECK_VIOLATION);
    assertThatThrownBy(
            () -> exec(insert, flow.id(), 1, trade, "a_" + trade + "_2", 10L, "k1", now, now, now))
        .hasMessageStartingWith(CHECK_VIOLATION);
    assertThatThrownBy(
            () -> exec(insert, flow.id(), 1, trade, "a_" + trade + "_1", 0L, "k1", now, now, now))
        .hasMessageStartingWith(CHECK_VIOLATION);
    exec(insert, flow.id(), 1, trade, "a_" + trade + "_1", 10L, "k1", now, now, now);
    assertThatThrownBy(
            () -> exec(insert, flow.id(), 1, trade, "a_" + trade + "_1", 10L, "k2", now, now, now))
        .hasMessageStartingWith(UNIQUE_VIOLATION);
    assertThatThrownBy(
            () -> exec(insert, flow.id(), 2, trade, "a_" + trade + "_2", 10L, "k1", now, now, now))
        .as("one refund per (merchant, key)")
        .hasMessageStartingWith(UNIQUE_VIOLATION);
    assertThatThrownBy(() -> exec(insert, 999_999L, 1, "t_x", "a_t_x_1", 10L, "k3", now, now, now))
        .as("a refund belongs to an existing flow")
        .hasMessageStartingWith("23503");
  }

  @Test
  void theScanIndexCoversNonTerminalRowsOnly() {
    assertThat(
            count(
                "SELECT count(*) FROM pg_indexes WHERE indexname = 'idx_refund_scan'"
                    + " AND indexdef LIKE '%WHERE%PENDING%PROCESSING%ABNORMAL%'"
                    + " AND indexdef NOT LIKE '%SUCCESS%'"))
        .isEqualTo(1);
  }
}
