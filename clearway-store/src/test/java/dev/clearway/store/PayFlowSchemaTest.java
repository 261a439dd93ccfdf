package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.exec;
import static dev.clearway.store.StoreFixtures.insertRaw;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.newGoal;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.payment;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.store.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The database's half of the rules: the guard triggers of the flow's two tables and the unique
 * index uk_live_attempt hold even against raw SQL that bypasses {@link JdbcFlowStore}, on
 * PostgreSQL and on the MySQL family.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class PayFlowSchemaTest {
  private static final Predicate<SQLException> CHECK_VIOLATION = SqlErrors::isCheckViolation;
  private static final Predicate<SQLException> UNIQUE_VIOLATION = SqlErrors::isUniqueViolation;

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  private static void assertRejected(
      ThrowingCallable sql, Predicate<SQLException> kind, String message) {
    assertThatThrownBy(sql)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(kind.test((SQLException) e)).as(e.toString()).isTrue());
  }

  // ---- guard trigger -----------------------------------------------------------------------

  @Test
  void bizSuccessCanNeverBeMovedToRefundingByRawSql() {
    Instant now = now();
    PayFlow success =
        walk(created(now), now, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS);

    assertRejected(
        () ->
            exec(
                "UPDATE pay_flow_state SET status='REFUNDING', version=version+1 WHERE id=?",
                success.id()),
        CHECK_VIOLATION,
        "terminal status BIZ_SUCCESS cannot change to REFUNDING");

    assertThat(reload(success)).isEqualTo(success);
  }

  @Test
  void anIllegalEdgeIsRejectedByRawSql() {
    PayFlow waitPay = created(now());

    assertRejected(
        () ->
            exec(
                "UPDATE pay_flow_state SET status='PAYED', version=version+1 WHERE id=?",
                waitPay.id()),
        CHECK_VIOLATION,
        "illegal transition WAIT_PAY -> PAYED");

    assertThat(reload(waitPay)).isEqualTo(waitPay);
  }

  @Test
  void rowsAreNeverDeleted() throws Exception {
    PayFlow f = created(now());

    assertRejected(
        () -> exec("DELETE FROM pay_flow_state WHERE id=?", f.id()),
        CHECK_VIOLATION,
        "rows are never deleted");

    assertThat(reload(f)).isEqualTo(f);
    // terminal rows neither
    Instant now = now();
    PayFlow closed = walk(created(now), now, FlowStatus.CLOSED);
    assertRejected(
        () -> exec("DELETE FROM pay_flow_state WHERE id=?", closed.id()),
        CHECK_VIOLATION,
        "rows are never deleted");
  }

  @Test
  void theAmountIsFrozen() {
    PayFlow f = created(now());

    assertRejected(
        () -> exec("UPDATE pay_flow_fact SET amount = amount + 1 WHERE id=?", f.id()),
        CHECK_VIOLATION,
        "identity and amount are frozen");

    assertThat(reload(f).amount()).isEqualTo(f.amount());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "user_id = user_id + 1",
        "scene = 'other'",
        "biz_key = CONCAT(biz_key, 'x')",
        "attempt_no = attempt_no + 1",
        "currency = 'USD'",
        "biz_deadline_time = biz_deadline_time + INTERVAL '1' DAY"
      })
  void identityColumnsAreFrozen(String assignment) {
    PayFlow f = created(now());

    assertRejected(
        () -> exec("UPDATE pay_flow_fact SET " + assignment + " WHERE id=?", f.id()),
        CHECK_VIOLATION,
        "identity and amount are frozen");

    assertThat(reload(f)).isEqualTo(f);
  }

  @Test
  void writtenOrderNumbersAreFrozen() {
    PayFlow f = created(now());

    assertRejected(
        () -> exec("UPDATE pay_flow_fact SET trade_order_no = 't_forged' WHERE id=?", f.id()),
        CHECK_VIOLATION,
        "order numbers are frozen");
    assertRejected(
        () -> exec("UPDATE pay_flow_fact SET refund_order_no = NULL WHERE id=?", f.id()),
        CHECK_VIOLATION,
        "order numbers are frozen");

    assertThat(reload(f)).isEqualTo(f);
  }

  @Test
  void aStatusChangeMustBumpTheVersionByExactlyOne() throws Exception {
    PayFlow f = created(now());

    assertRejected(
        () -> exec("UPDATE pay_flow_state SET status='PAYING' WHERE id=?", f.id()),
        CHECK_VIOLATION,
        "must bump the version by one");
    assertRejected(
        () ->
            exec("UPDATE pay_flow_state SET status='PAYING', version=version+2 WHERE id=?", f.id()),
        CHECK_VIOLATION,
        "must bump the version by one");

    // the positive control: the legal edge with version + 1 passes the trigger
    assertThat(
            exec("UPDATE pay_flow_state SET status='PAYING', version=version+1 WHERE id=?", f.id()))
        .isEqualTo(1);
    assertThat(reload(f).status()).isEqualTo(FlowStatus.PAYING);
  }

  @Test
  void closedCanNeverBecomePayed() {
    Instant now = now();
    PayFlow closed = walk(created(now), now, FlowStatus.CLOSED);

    assertRejected(
        () ->
            exec(
                "UPDATE pay_flow_state SET status='PAYED', version=version+1 WHERE id=?",
                closed.id()),
        CHECK_VIOLATION,
        "terminal status CLOSED cannot change to PAYED");
  }

  static Stream<Arguments> allPairs() {
    List<Arguments> pairs = new ArrayList<>();
    for (FlowStatus from : FlowStatus.values()) {
      for (FlowStatus to : FlowStatus.values()) {
        pairs.add(Arguments.of(from, to));
      }
    }
    return pairs.stream();
  }

  /** The trigger and {@link Transitions} describe the same table, pair by pair. */
  @ParameterizedTest(name = "raw {0} -> {1}")
  @MethodSource("allPairs")
  void theTriggerAcceptsExactlyTheEdgesOfTheJavaTable(FlowStatus from, FlowStatus to)
      throws Exception {
    long id = insertRaw(newGoal(), 1, from, now());
    String sql = "UPDATE pay_flow_state SET status=?, version=version+1 WHERE id=?";

    if (from == to || Transitions.isLegal(from, to)) {
      assertThatCode(() -> exec(sql, to.name(), id)).doesNotThrowAnyException();
      assertThat(store().find(id).orElseThrow().status()).isEqualTo(to);
    } else {
      assertRejected(() -> exec(sql, to.name(), id), CHECK_VIOLATION, from + "");
      assertThat(store().find(id).orElseThrow().status()).isEqualTo(from);
    }
  }

  @Test
  void anUnknownReviewStateIsRejectedByTheCheckConstraint() {
    PayFlow f = created(now());
    assertRejected(
        () -> exec("UPDATE pay_flow_state SET review_state='MAYBE' WHERE id=?", f.id()),
        CHECK_VIOLATION,
        "ck_review");
  }

  // ---- uk_live_attempt ---------------------------------------------------------------------

  @Test
  void aSecondLiveAttemptOfAGoalIsRejected() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    store().createAttempt(payment(goal, now), lease("a", now), now);

    assertRejected(
        () -> insertRaw(goal, 2, FlowStatus.WAIT_PAY, now), UNIQUE_VIOLATION, "uk_live_attempt");

    assertThat(store().findByGoal(goal)).hasSize(1);
  }

  @ParameterizedTest(name = "an attempt in {0} blocks a second live attempt")
  @ValueSource(strings = {"PAYING", "PAYED", "BIZ_SUCCESS", "REFUNDING", "REFUNDED"})
  void everyStatusButADefiniteFailureCountsAsLive(String liveStatus) throws Exception {
    GoalKey goal = newGoal();
    insertRaw(goal, 1, FlowStatus.valueOf(liveStatus), now());

    for (FlowStatus second :
        new FlowStatus[] {FlowStatus.WAIT_PAY, FlowStatus.PAYING, FlowStatus.BIZ_SUCCESS}) {
      assertRejected(() -> insertRaw(goal, 2, second, now()), UNIQUE_VIOLATION, "uk_live_attempt");
    }
  }

  @Test
  void afterADefiniteFailureOneNewLiveAttemptIsAllowedButNotTwo() throws Exception {
    Instant now = now();
    GoalKey goal = newGoal();
    PayFlow first = store().createAttempt(payment(goal, now), lease("a", now), now).flow();
    walk(first, now, FlowStatus.PAYING, FlowStatus.PAY_FAIL);

    long second = insertRaw(goal, 2, FlowStatus.WAIT_PAY, now);
    assertThat(second).isPositive();
    assertRejected(
        () -> insertRaw(goal, 3, FlowStatus.WAIT_PAY, now), UNIQUE_VIOLATION, "uk_live_attempt");
    // definitely failed attempts may pile up
    insertRaw(goal, 4, FlowStatus.CLOSED, now);
    insertRaw(goal, 5, FlowStatus.PAY_FAIL, now);
    assertThat(store().findByGoal(goal)).hasSize(4);
  }

  @Test
  void theSameAttemptNumberIsRejectedEvenWhenDefinitelyFailed() throws Exception {
    GoalKey goal = newGoal();
    insertRaw(goal, 1, FlowStatus.PAY_FAIL, now());
    assertRejected(
        () -> insertRaw(goal, 1, FlowStatus.CLOSED, now()), UNIQUE_VIOLATION, "uk_biz_attempt");
  }

  @Test
  void otherGoalsOfTheSameUserAreIndependent() throws Exception {
    GoalKey goal = newGoal();
    insertRaw(goal, 1, FlowStatus.WAIT_PAY, now());
    insertRaw(
        new GoalKey(goal.merchant(), goal.userId(), goal.scene(), goal.bizKey() + ":b"),
        1,
        FlowStatus.WAIT_PAY,
        now());
    insertRaw(
        new GoalKey(goal.merchant(), goal.userId(), "other", goal.bizKey()),
        1,
        FlowStatus.WAIT_PAY,
        now());
    insertRaw(
        new GoalKey(goal.merchant(), goal.userId() + 1, goal.scene(), goal.bizKey()),
        1,
        FlowStatus.WAIT_PAY,
        now());
    assertThat(StoreFixtures.count("SELECT count(*) FROM pay_flow")).isEqualTo(4);
  }
}
