package dev.clearway.store.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.port.AttemptStore.AttemptChange;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.port.AttemptStore.RecordResult;
import dev.clearway.core.channel.port.AttemptStore.TaskChange;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.port.CompensationStore.Compensation;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An attempt's writers are fenced by its recovery task's lease: the creating call until its grace
 * ends, a recovery worker after its claim. A writer whose lease was taken over changes nothing (the
 * whole recording transaction rolls back); observers (webhooks) record against the version they
 * read. Compensations are fenced by the version their claim bumped.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ChannelLeaseFenceTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final String CREATOR = "gateway/abc/1";

  private final DataSource dataSource = TestDatabase.get().dataSource();
  private final ChannelStores stores =
      JdbcChannelStores.create(dataSource, TestDatabase.get().dialect());

  @BeforeEach
  void clean() {
    TestDatabase.get()
        .truncate(
            "payment_attempt_history",
            "provider_evidence",
            "recovery_task",
            "attempt_compensation",
            "channel_refund",
            "channel_webhook_inbox",
            "payment_attempt",
            "payment_order",
            "channel_account",
            "outbox_event");
    stores
        .accounts()
        .upsertAccount(new ChannelAccount(1, "stripe", "acct_1", "psp:a", Set.of("card"), 1, true));
  }

  /** A new attempt whose task the creating call holds until T0 + 10 s. */
  private Attempt newAttempt(String trade) {
    stores.orders().openOrder(new PaymentOrder(trade, 500, "EUR", "card", false), T0);
    return stores
        .attempts()
        .insertAttempt(
            new NewAttempt(
                trade,
                1,
                AttemptOrigin.INITIAL,
                null,
                "",
                new Attempt.Money(500, "EUR", "pm_card_visa"),
                id -> new String[] {"k" + id, "0".repeat(64)}),
            new NewTask("RETRIEVE", T0.plusSeconds(10), "v1", CREATOR),
            T0)
        .orElseThrow();
  }

  private static ProviderEvidence evidence(ResultCertainty c) {
    return new ProviderEvidence(
        EvidenceSource.QUERY,
        "RETRIEVE",
        new PspOutcome(c, "s", "pi_1", null, false, false, "req_1", "a".repeat(64)),
        "v1",
        T0);
  }

  private RecordResult record(
      Attempt read, AttemptStatus to, TaskChange task, String lease, Instant now) {
    ResultCertainty certainty =
        to == AttemptStatus.SUCCEEDED
            ? ResultCertainty.CONFIRMED_SUCCESS
            : to == AttemptStatus.FAILED
                ? ResultCertainty.DEFINITE_FAILURE
                : ResultCertainty.UNKNOWN;
    return stores
        .attempts()
        .record(new AttemptChange(read, to, evidence(certainty), task, false, null, lease), now);
  }

  private RecoveryTask claim(String owner, Instant now) {
    List<RecoveryTask> claimed = stores.tasks().claimDue(owner, 10, LEASE, now);
    assertThat(claimed).hasSize(1);
    return claimed.get(0);
  }

  @Test
  void theCreatesAnswerAfterItsTaskWasTakenOverChangesNothing() {
    Attempt a = newAttempt("t_create");
    assertThat(stores.tasks().claimDue("w2/x/1", 10, LEASE, T0.plusSeconds(5))).isEmpty();
    claim("w2/x/1", T0.plusSeconds(11)); // the creation lease expired: the worker takes over

    RecordResult late =
        record(a, AttemptStatus.SUCCEEDED, new TaskChange.Resolve(), CREATOR, T0.plusSeconds(12));

    assertThat(late).isEqualTo(RecordResult.LEASE_LOST);
    Attempt after = stores.attempts().attempt(a.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(AttemptStatus.CREATED);
    assertThat(after.version()).isEqualTo(a.version());
    assertThat(count("SELECT count(*) FROM provider_evidence")).isZero();
    assertThat(count("SELECT count(*) FROM payment_attempt_history")).isZero();
    assertThat(count("SELECT count(*) FROM outbox_event")).isZero();
    assertThat(text("SELECT CONCAT(status, ' ', lease_owner) FROM recovery_task"))
        .isEqualTo("LEASED w2/x/1");
    // The holder records.
    assertThat(
            record(
                a, AttemptStatus.SUCCEEDED, new TaskChange.Resolve(), "w2/x/1", T0.plusSeconds(12)))
        .isEqualTo(RecordResult.RECORDED);
    assertThat(text("SELECT status FROM recovery_task")).isEqualTo("RESOLVED");
  }

  @Test
  void aRecoveryWorkerWhoseLeaseWasTakenOverCannotMoveTheAttemptNorItsTask() {
    Attempt created = newAttempt("t_worker");
    assertThat(
            record(
                created,
                AttemptStatus.UNKNOWN,
                new TaskChange.Reschedule(T0.plusSeconds(20), "RETRIEVE", "timeout"),
                CREATOR,
                T0.plusSeconds(1)))
        .isEqualTo(RecordResult.RECORDED);
    Attempt unknown = stores.attempts().attempt(created.id()).orElseThrow();
    RecoveryTask w1 = claim("w1/x/1", T0.plusSeconds(20));
    RecoveryTask w2 = claim("w2/x/1", T0.plusSeconds(51)); // w1's lease ended at T0 + 50 s

    RecordResult stale =
        record(
            unknown,
            AttemptStatus.SUCCEEDED,
            new TaskChange.Resolve(),
            w1.leaseOwner(),
            T0.plusSeconds(52));
    boolean rescheduled =
        stores
            .tasks()
            .rescheduleTask(
                w1, T0.plusSeconds(60), "RETRIEVE", "WAITING_WEBHOOK", T0.plusSeconds(53));

    assertThat(stale).isEqualTo(RecordResult.LEASE_LOST);
    assertThat(rescheduled).isFalse();
    assertThat(stores.attempts().attempt(created.id()).orElseThrow()).isEqualTo(unknown);
    assertThat(count("SELECT count(*) FROM provider_evidence")).isEqualTo(1);
    assertThat(text("SELECT CONCAT(status, ' ', lease_owner) FROM recovery_task"))
        .isEqualTo("LEASED " + w2.leaseOwner());
  }

  @Test
  void aWebhookRecordsWhileAWorkerHoldsTheTaskAndNeverOverwritesANewerResult() {
    Attempt created = newAttempt("t_webhook");
    RecoveryTask w1 = claim("w1/x/1", T0.plusSeconds(11));

    // The worker records PENDING; a webhook that read the attempt before it arrives afterwards.
    assertThat(
            record(
                created,
                AttemptStatus.PENDING,
                new TaskChange.Reschedule(T0.plusSeconds(30), "RETRIEVE", null),
                w1.leaseOwner(),
                T0.plusSeconds(12)))
        .isEqualTo(RecordResult.RECORDED);
    assertThat(record(created, AttemptStatus.FAILED, new TaskChange.Resolve(), null, T0))
        .isEqualTo(RecordResult.LOST);
    assertThat(stores.attempts().attempt(created.id()).orElseThrow().status())
        .isEqualTo(AttemptStatus.PENDING);

    // A webhook about the current version is recorded, whoever holds the task.
    Attempt pending = stores.attempts().attempt(created.id()).orElseThrow();
    claim("w2/x/1", T0.plusSeconds(31));
    assertThat(
            record(
                pending,
                AttemptStatus.SUCCEEDED,
                new TaskChange.Resolve(),
                null,
                T0.plusSeconds(32)))
        .isEqualTo(RecordResult.RECORDED);
    assertThat(text("SELECT status FROM recovery_task")).isEqualTo("RESOLVED");
  }

  @Test
  void aTaskIsHeldForAReplayOnlyWhenNobodyElseHoldsIt() {
    Attempt a = newAttempt("t_hold");

    assertThat(stores.tasks().holdTask(a.id(), "flow/x/1", T0.plusSeconds(40), T0.plusSeconds(5)))
        .as("the creating call still holds it")
        .isFalse();
    assertThat(stores.tasks().holdTask(a.id(), "flow/x/1", T0.plusSeconds(40), T0.plusSeconds(11)))
        .isTrue();
    assertThat(stores.tasks().claimDue("w1/x/1", 10, LEASE, T0.plusSeconds(20))).isEmpty();
    assertThat(
            record(
                a,
                AttemptStatus.UNKNOWN,
                new TaskChange.Reschedule(T0.plusSeconds(60), "RETRIEVE", null),
                "flow/x/1",
                T0.plusSeconds(21)))
        .isEqualTo(RecordResult.RECORDED);
    assertThat(text("SELECT status FROM recovery_task")).isEqualTo("READY");
  }

  @Test
  void aCompensationWorkerWhoseClaimWasTakenOverCannotSettleIt() {
    Attempt a = newAttempt("t_comp");
    record(a, AttemptStatus.FAILED, new TaskChange.Resolve(), CREATOR, T0.plusSeconds(1));
    assertThat(
            stores
                .compensations()
                .openCompensation(
                    Compensation.opening(a.id(), "t_comp", "cmp_1", 500, "CHARGED_AFTER_FAILURE"),
                    T0))
        .isTrue();

    List<Compensation> first = stores.compensations().claimCompensations(10, LEASE, T0);
    assertThat(first).hasSize(1);
    assertThat(stores.compensations().claimCompensations(10, LEASE, T0.plusSeconds(10))).isEmpty();
    List<Compensation> second =
        stores.compensations().claimCompensations(10, LEASE, T0.plusSeconds(31));
    assertThat(second).hasSize(1);

    assertThat(
            stores
                .compensations()
                .updateCompensation(
                    first.get(0), "REFUNDED", null, T0.plusSeconds(32), T0.plusSeconds(32)))
        .isFalse();
    assertThat(text("SELECT status FROM attempt_compensation")).isEqualTo("PENDING");
    assertThat(
            stores
                .compensations()
                .updateCompensation(
                    second.get(0), "REFUNDED", null, T0.plusSeconds(32), T0.plusSeconds(32)))
        .isTrue();
    assertThat(text("SELECT status FROM attempt_compensation")).isEqualTo("REFUNDED");
  }

  private void execute(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private long count(String sql) {
    return Long.parseLong(text(sql));
  }

  private String text(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
