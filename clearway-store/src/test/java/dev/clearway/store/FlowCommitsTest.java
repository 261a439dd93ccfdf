package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.newGoal;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.payment;
import static dev.clearway.store.StoreFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.store.testing.CommitCountingDataSource;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A payment's happy path in the flow store costs three commits on either database: the creation
 * already started (facts, state in PAYING and both history rows), then the two transitions to
 * BIZ_SUCCESS with their history rows and outbox events; four when created in WAIT_PAY and moved to
 * PAYING apart. PostgreSQL writes each in one statement, the MySQL family in several statements of
 * one transaction.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class FlowCommitsTest {

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void theHappyPathIsFourCommitsWithItsHistoryAndEvents() throws Exception {
    CommitCountingDataSource counting =
        new CommitCountingDataSource(TestDatabase.get().dataSource());
    JdbcFlowStore store = new JdbcFlowStore(counting.dataSource(), TestDatabase.get().dialect());
    Instant now = now();

    PayFlow f = store.createAttempt(payment(newGoal(), now), lease("creator", now), now).flow();
    for (FlowStatus to :
        new FlowStatus[] {FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS}) {
      f = store.transition(write(f, to, now)).orElseThrow();
    }

    assertThat(counting.commits()).isEqualTo(4);
    assertThat(f.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(f.version()).isEqualTo(3);
    assertThat(
            StoreFixtures.count("SELECT count(*) FROM pay_flow_history WHERE flow_id = ?", f.id()))
        .isEqualTo(4);
    assertThat(
            StoreFixtures.count("SELECT count(*) FROM outbox_event WHERE aggregate_id = ?", f.id()))
        .isEqualTo(2);
  }

  @Test
  void theHappyPathStartedAtCreationIsThreeCommitsWithTheSameHistoryAndEvents() throws Exception {
    CommitCountingDataSource counting =
        new CommitCountingDataSource(TestDatabase.get().dataSource());
    JdbcFlowStore store = new JdbcFlowStore(counting.dataSource(), TestDatabase.get().dialect());
    Instant now = now();

    PayFlow f = store.createStarted(payment(newGoal(), now), lease("creator", now), now).flow();
    assertThat(f.status()).isEqualTo(FlowStatus.PAYING);
    for (FlowStatus to : new FlowStatus[] {FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS}) {
      f = store.transition(write(f, to, now)).orElseThrow();
    }

    assertThat(counting.commits()).isEqualTo(3);
    assertThat(f.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(f.version()).isEqualTo(3);
    assertThat(
            StoreFixtures.count("SELECT count(*) FROM pay_flow_history WHERE flow_id = ?", f.id()))
        .isEqualTo(4);
    assertThat(
            StoreFixtures.count("SELECT count(*) FROM outbox_event WHERE aggregate_id = ?", f.id()))
        .isEqualTo(2);
  }
}
