package dev.clearway.store;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.PAY_FAIL;
import static dev.clearway.store.StoreFixtures.count;
import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.exec;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.payment;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.retention.RetentionKind;
import dev.clearway.store.retention.JdbcRetentionStore;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Creating an attempt reads the archive only where it can change the answer, and an archived
 * attempt still decides its goal: a done goal is never charged again and an attempt number is never
 * reused, whichever of its attempts the archiver moved.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ArchivedGoalCreationTest {
  private static final Duration AGE = Duration.ofDays(90);

  private final JdbcRetentionStore retention =
      new JdbcRetentionStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  private int archive(Instant now) {
    return retention.removeBatch(RetentionKind.FLOW_ARCHIVE, now.minus(AGE), 100);
  }

  @Test
  void anArchivedSuccessAnswersItsGoalWhileAnEarlierFailedAttemptStaysHot() throws Exception {
    Instant now = now();
    Instant old = now.minus(Duration.ofDays(100));
    PayFlow failed = walk(created(old), old, PAYING, PAY_FAIL);
    PayFlow second =
        store().createAttempt(payment(failed.goal(), old), lease("c1", old), old).flow();
    PayFlow success = walk(second, old, PAYING, PAYED, BIZ_SUCCESS);
    // The review mark keeps the failed attempt hot; the success is archived.
    exec("UPDATE pay_flow SET review_state = 'ESCALATED' WHERE id = ?", failed.id());
    assertThat(archive(now)).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM pay_flow_archive WHERE id = ?", success.id()))
        .isEqualTo(1);

    CreateResult again = store().createAttempt(payment(failed.goal(), now), lease("c2", now), now);

    assertThat(again.created()).isFalse();
    assertThat(again.flow()).isEqualTo(success);
    assertThat(count("SELECT count(*) FROM pay_flow WHERE biz_key = ?", failed.goal().bizKey()))
        .isEqualTo(1);
  }

  @Test
  void attemptNumbersContinueAfterArchivedAttemptsAndALiveHotAttemptAnswersAlone()
      throws Exception {
    Instant now = now();
    Instant old = now.minus(Duration.ofDays(100));
    PayFlow first = walk(created(old), old, PAYING, PAY_FAIL);
    assertThat(archive(now)).isEqualTo(1);

    CreateResult retry = store().createAttempt(payment(first.goal(), now), lease("c1", now), now);
    CreateResult repeat = store().createAttempt(payment(first.goal(), now), lease("c2", now), now);

    assertThat(retry.created()).isTrue();
    assertThat(retry.flow().attemptNo()).isEqualTo(2);
    assertThat(repeat.created()).isFalse();
    assertThat(repeat.flow().id()).isEqualTo(retry.flow().id());
  }
}
