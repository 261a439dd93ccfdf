package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.exec;
import static dev.clearway.store.StoreFixtures.insertRaw;
import static dev.clearway.store.StoreFixtures.newGoal;
import static dev.clearway.store.StoreFixtures.now;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.store.testing.TestDatabase;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The compensation refund number is unique because it is bound to the unique trade number
 * (ck_refund_order_no + uk_trade_order_no), not by an index of its own.
 */
class RefundNumberConstraintTest {

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void aRefundNumberOtherThanTheDerivedOneIsRefused() throws Exception {
    long id = insertRaw(newGoal(), 1, FlowStatus.WAIT_PAY, now());

    assertThatThrownBy(
            () ->
                exec(
                    "UPDATE pay_flow SET trade_order_no = 't_x_1', refund_order_no = 'r_other'"
                        + " WHERE id = ?",
                    id))
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23514"));
  }

  @Test
  void twoFlowsCannotShareARefundNumber() throws Exception {
    long first = insertRaw(newGoal(), 1, FlowStatus.WAIT_PAY, now());
    long second = insertRaw(newGoal(), 1, FlowStatus.WAIT_PAY, now());
    exec(
        "UPDATE pay_flow SET trade_order_no = 't_same', refund_order_no = 'r_t_same' WHERE id = ?",
        first);

    assertThatThrownBy(
            () ->
                exec(
                    "UPDATE pay_flow SET trade_order_no = 't_same', refund_order_no = 'r_t_same'"
                        + " WHERE id = ?",
                    second))
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
  }
}
