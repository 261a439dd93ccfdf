package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.LEASE;
import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.history;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.RescheduleWrite;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.review.CommandKind;
import dev.clearway.store.StoreFixtures.HistoryRow;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every approved manual command bumps the flow's version and releases its lease, so a worker that
 * read the flow before the command can write nothing after it.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ManualCommandFenceTest {
  private final JdbcReviewStore review = new JdbcReviewStore(TestDatabase.get().dataSource());

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  /** A PAYED flow escalated to a person, then claimed again by a worker's retry: its read. */
  private static PayFlow escalatedAndHeldByWorker(Instant now) {
    PayFlow payed = walk(created(now), now, FlowStatus.PAYING, FlowStatus.PAYED);
    assertThat(
            store()
                .reschedule(
                    new RescheduleWrite(
                        payed,
                        13,
                        now,
                        "BIZ_FACT_UNREADABLE",
                        ReviewState.ESCALATED,
                        "RETRY_BUDGET_SPENT:BIZ_FACT_UNREADABLE",
                        now,
                        payed.leaseOwner())))
        .isTrue();
    assertThat(store().claim(payed.id(), lease("worker", now), now)).isTrue();
    return reload(payed);
  }

  private void approve(long flowId, CommandKind kind, Instant now) {
    JdbcReviewStore.Result proposed =
        review.propose(flowId, kind, "alice", "T-1", "checked", "ticket", now);
    long commandId = ((JdbcReviewStore.Result.Done) proposed).command().id();
    JdbcReviewStore.Result approved = review.approve(commandId, "bob", now);
    assertThat(((JdbcReviewStore.Result.Done) approved).command().state()).isEqualTo("APPLIED");
  }

  private static boolean workerMoves(PayFlow read, FlowStatus to, Instant now) {
    return store()
        .transition(
            new TransitionWrite(
                read,
                to,
                null,
                now.plus(LEASE),
                "worker",
                new HistoryNote(TriggerSource.SCANNER, null, "TEST", 0),
                now,
                "worker"))
        .isPresent();
  }

  private static boolean workerReschedules(PayFlow read, Instant now) {
    return store()
        .reschedule(
            new RescheduleWrite(
                read, 14, now.plusSeconds(60), "X", ReviewState.ESCALATED, "X", now, "worker"));
  }

  @Test
  void resumeBumpsTheVersionSoAWorkerThatReadTheFlowBeforeCannotWriteAfter() throws Exception {
    Instant now = now();
    PayFlow read = escalatedAndHeldByWorker(now);

    approve(read.id(), CommandKind.RESUME, now);

    PayFlow resumed = reload(read);
    assertThat(resumed.version()).isEqualTo(read.version() + 1);
    assertThat(resumed.status()).isEqualTo(FlowStatus.PAYED);
    assertThat(resumed.reviewState()).isEqualTo(ReviewState.NONE);
    assertThat(resumed.leaseOwner()).isNull();
    List<HistoryRow> rows = history(read.id());
    HistoryRow last = rows.get(rows.size() - 1);
    assertThat(last.fromStatus()).isEqualTo("PAYED");
    assertThat(last.toStatus()).isEqualTo("PAYED");
    assertThat(last.version()).isEqualTo(resumed.version());
    assertThat(last.triggerSource()).isEqualTo("MANUAL");
    assertThat(last.errorCode()).isEqualTo("RESUME");

    assertThat(workerMoves(read, FlowStatus.BIZ_SUCCESS, now)).isFalse();
    assertThat(workerReschedules(read, now)).isFalse();
    assertThat(reload(read)).isEqualTo(resumed);
  }

  @ParameterizedTest(name = "{0} fences a worker that read the flow before it")
  @EnumSource(
      value = CommandKind.class,
      names = {"CONFIRM_BIZ_SUCCESS", "FORCE_REFUND"})
  void everyTransitionCommandFencesAWorkerThatReadTheFlowBefore(CommandKind kind) throws Exception {
    Instant now = now();
    PayFlow read = escalatedAndHeldByWorker(now);

    approve(read.id(), kind, now);

    PayFlow after = reload(read);
    assertThat(after.version()).isEqualTo(read.version() + 1);
    assertThat(after.leaseOwner()).isNull();
    FlowStatus other =
        kind == CommandKind.FORCE_REFUND ? FlowStatus.BIZ_SUCCESS : FlowStatus.REFUNDING;
    assertThat(workerMoves(read, other, now)).isFalse();
    assertThat(workerReschedules(read, now)).isFalse();
    assertThat(reload(read)).isEqualTo(after);
  }
}
