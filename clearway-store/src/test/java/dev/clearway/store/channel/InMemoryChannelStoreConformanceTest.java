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
import dev.clearway.core.channel.port.AttemptStore.TaskChange;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.port.WebhookInbox.Delivery;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryChannelStore;
import dev.clearway.store.Sql;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The model checker's in-memory channel store (in its {@code LEASE} mode, the fenced SQL) is held
 * to {@link JdbcAttemptStore} and {@link JdbcRecoveryTaskStore} on PostgreSQL for one attempt and
 * its recovery task: records by the task's holder, by a holder whose lease was taken over ({@code
 * LEASE_LOST}) and by observers without a lease, claims and takeovers, holds, reschedules with a
 * stale claim, resolutions, wakes and the webhook inbox's claims give the same answers and leave
 * the same attempt and task.
 */
class InMemoryChannelStoreConformanceTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final String CREATOR = "gateway/0/1";
  private static final ChannelAccount ACCOUNT =
      new ChannelAccount(1, "stripe", "acct_1", "psp:a", Set.of("card"), 1, true);

  private final DataSource dataSource = TestDatabase.get().dataSource();
  private final ChannelStores jdbc = JdbcChannelStores.create(dataSource);
  private final Sql sql = new Sql(dataSource);
  private InMemoryChannelStore memory;
  private Attempt created;

  /** A new attempt whose task the creating call holds until T0 + 10 s, in both stores. */
  @BeforeEach
  void newAttempt() {
    execute(
        "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
            + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
            + " payment_order, channel_account, outbox_event CASCADE");
    jdbc.accounts().upsertAccount(ACCOUNT);
    PaymentOrder order =
        jdbc.orders().openOrder(new PaymentOrder("t_1", 500, "EUR", "card", false), T0);
    created =
        jdbc.attempts()
            .insertAttempt(
                new NewAttempt(
                    "t_1",
                    ACCOUNT.id(),
                    AttemptOrigin.INITIAL,
                    null,
                    "",
                    new Attempt.Money(500, "EUR", "pm_card_visa"),
                    id -> new String[] {"k" + id, "0".repeat(64)}),
                new NewTask("RETRIEVE", T0.plusSeconds(10), "v1", CREATOR),
                T0)
            .orElseThrow();
    memory =
        new InMemoryChannelStore(
            Fencing.LEASE,
            new InMemoryChannelStore.Snapshot(ACCOUNT, order, created, task(), 0, 0, Map.of()));
  }

  /** Runs {@code op} on both stores; the answers, the attempt and its task must agree. */
  private <T> T both(String what, Function<ChannelStores, T> op) {
    T fromJdbc = op.apply(jdbc);
    T fromMemory = op.apply(ChannelStores.of(memory));
    assertThat(fromMemory).as(what).isEqualTo(fromJdbc);
    assertThat(memory.attempt(created.id()))
        .as(what + ": attempt")
        .isEqualTo(jdbc.attempts().attempt(created.id()));
    assertThat(memory.snapshot().task()).as(what + ": task").isEqualTo(task());
    return fromJdbc;
  }

  private RecoveryTask task() {
    return sql.query(
            "SELECT id, attempt_id, channel_account_id, status, strategy, due_at, attempt_count,"
                + " lease_owner, lease_until, policy_version, version FROM recovery_task",
            ps -> {},
            ChannelRows::task)
        .get(0);
  }

  private Attempt current() {
    return jdbc.attempts().attempt(created.id()).orElseThrow();
  }

  private static Instant at(int seconds) {
    return T0.plusSeconds(seconds);
  }

  private static AttemptChange change(
      Attempt read, AttemptStatus to, TaskChange task, String lease, int at) {
    ResultCertainty certainty =
        switch (to) {
          case SUCCEEDED -> ResultCertainty.CONFIRMED_SUCCESS;
          case FAILED -> ResultCertainty.DEFINITE_FAILURE;
          case PENDING -> ResultCertainty.PENDING;
          case CREATED, UNKNOWN -> ResultCertainty.UNKNOWN;
        };
    PspOutcome outcome =
        new PspOutcome(certainty, "s", "pi_1", "e", false, false, "req_1", "a".repeat(64));
    ProviderEvidence evidence =
        new ProviderEvidence(EvidenceSource.QUERY, "RETRIEVE", outcome, "v1", at(at));
    return new AttemptChange(read, to, evidence, task, false, null, lease);
  }

  private static TaskChange.Reschedule due(int at) {
    return new TaskChange.Reschedule(at(at), "RETRIEVE", "timeout");
  }

  @Test
  void holdersStaleHoldersAndObserversAgree() {
    Attempt unknown = takenOverTwice();
    both(
        "an observer records whoever holds the task",
        s ->
            s.attempts().record(change(unknown, AttemptStatus.PENDING, due(70), null, 53), at(53)));
    assertThat(task().status()).isEqualTo(RecoveryTask.TaskStatus.READY);
  }

  /**
   * The creator records under its lease; a recovery worker claims the task, then a second takes it
   * over once that lease expired: neither the creator nor the first worker writes any more.
   */
  private Attempt takenOverTwice() {
    both("a claim within the creation lease", s -> s.tasks().claimDue("w1/0/1", 10, LEASE, at(5)));
    both(
        "the creator records under its lease",
        s ->
            s.attempts()
                .record(change(created, AttemptStatus.UNKNOWN, due(20), CREATOR, 1), at(1)));
    Attempt unknown = current();
    both("a claim before the task is due", s -> s.tasks().claimDue("w1/0/1", 10, LEASE, at(15)));
    List<RecoveryTask> first =
        both("a claim", s -> s.tasks().claimDue("w1/0/1", 10, LEASE, at(20)));
    both(
        "the creator after the claim",
        s ->
            s.attempts()
                .record(
                    change(unknown, AttemptStatus.FAILED, new TaskChange.Resolve(), CREATOR, 21),
                    at(21)));
    both("a claim of a held task", s -> s.tasks().claimDue("w2/0/1", 10, LEASE, at(50)));
    both("a takeover", s -> s.tasks().claimDue("w2/0/1", 10, LEASE, at(51)));
    both(
        "the first worker after the takeover",
        s ->
            s.attempts()
                .record(
                    change(
                        unknown, AttemptStatus.SUCCEEDED, new TaskChange.Resolve(), "w1/0/1", 52),
                    at(52)));
    both(
        "its reschedule of the task",
        s -> s.tasks().rescheduleTask(first.get(0), at(60), "RETRIEVE", "x", at(53)));
    return unknown;
  }

  @Test
  void holdsAndFinalRecordsAgree() {
    Attempt unknown = takenOverTwice();
    both(
        "an observer records whoever holds the task",
        s ->
            s.attempts().record(change(unknown, AttemptStatus.PENDING, due(70), null, 53), at(53)));
    both(
        "the holder whose task an observer rescheduled",
        s ->
            s.attempts()
                .record(
                    change(
                        unknown, AttemptStatus.SUCCEEDED, new TaskChange.Resolve(), "w2/0/1", 54),
                    at(54)));
    Attempt pending = current();
    both(
        "a wake of the task",
        s -> {
          s.tasks().wakeTask(created.id(), at(55));
          return true;
        });
    both("a hold of a READY task", s -> s.tasks().holdTask(created.id(), "h/0/1", at(85), at(56)));
    both("a hold of a held task", s -> s.tasks().holdTask(created.id(), "h/0/2", at(86), at(57)));
    both(
        "a stale version by the holder",
        s ->
            s.attempts()
                .record(
                    change(unknown, AttemptStatus.SUCCEEDED, new TaskChange.Resolve(), "h/0/1", 58),
                    at(58)));
    both(
        "the holder records the charge",
        s ->
            s.attempts()
                .record(
                    change(pending, AttemptStatus.SUCCEEDED, new TaskChange.Resolve(), "h/0/1", 59),
                    at(59)));
    Attempt succeeded = current();
    both(
        "a hold of a resolved task",
        s -> s.tasks().holdTask(created.id(), "h/0/3", at(99), at(99)));
    both("a claim of a resolved task", s -> s.tasks().claimDue("w3/0/1", 10, LEASE, at(99)));
    both(
        "an observer's stale version",
        s ->
            s.attempts()
                .record(
                    change(pending, AttemptStatus.FAILED, new TaskChange.Resolve(), null, 60),
                    at(60)));
    both(
        "resolve a resolved task",
        s -> {
          s.tasks().resolveTask(created.id(), at(61));
          return true;
        });
    assertThat(succeeded.status()).isEqualTo(AttemptStatus.SUCCEEDED);
  }

  @Test
  void manualTasksAndResolutionsAgree() {
    both("a takeover of the creation lease", s -> s.tasks().claimDue("w1/0/1", 10, LEASE, at(11)));
    List<RecoveryTask> claimed =
        both("its claim again", s -> s.tasks().claimDue("w1/0/1", 10, LEASE, at(12)));
    assertThat(claimed).isEmpty();
    both(
        "the holder hands the attempt to a person",
        s ->
            s.attempts()
                .record(
                    change(
                        created,
                        AttemptStatus.UNKNOWN,
                        new TaskChange.Manual("MAX_UNKNOWN_AGE"),
                        "w1/0/1",
                        13),
                    at(13)));
    both("a claim of a person's task", s -> s.tasks().claimDue("w2/0/1", 10, LEASE, at(99)));
    both(
        "a hold of a person's task",
        s -> s.tasks().holdTask(created.id(), "h/0/1", at(120), at(99)));
    both(
        "resolve a person's task",
        s -> {
          s.tasks().resolveTask(created.id(), at(99));
          return true;
        });
  }

  @Test
  void aResolutionIsNotFencedAndARescheduleIsFencedByTheClaimsVersion() {
    List<RecoveryTask> first =
        both("a takeover", s -> s.tasks().claimDue("w1/0/1", 10, LEASE, at(11)));
    both("a later takeover", s -> s.tasks().claimDue("w2/0/1", 10, LEASE, at(42)));
    both(
        "a reschedule under the first claim",
        s -> s.tasks().rescheduleTask(first.get(0), at(60), "RETRIEVE", "x", at(43)));
    RecoveryTask second = task();
    both(
        "a reschedule under the current claim",
        s -> s.tasks().rescheduleTask(second, at(60), "RETRIEVE", "x", at(43)));
    both(
        "resolve a READY task",
        s -> {
          s.tasks().resolveTask(created.id(), at(61));
          return true;
        });
  }

  @Test
  void webhookClaimsAgree() {
    Delivery d = new Delivery(ACCOUNT.id(), "stripe", "evt_1");
    Delivery other = new Delivery(ACCOUNT.id(), "stripe", "evt_2");
    both("the first delivery", s -> s.inbox().claimDelivery(d, at(0), at(-120)));
    both("a duplicate while it runs", s -> s.inbox().claimDelivery(d, at(1), at(-119)));
    both("another event", s -> s.inbox().claimDelivery(other, at(1), at(-119)));
    both(
        "released",
        s -> {
          s.inbox().releaseDelivery(d);
          return true;
        });
    both("a redelivery after a release", s -> s.inbox().claimDelivery(d, at(2), at(-118)));
    both("an unfinished claim goes stale", s -> s.inbox().claimDelivery(other, at(200), at(80)));
    both(
        "finished",
        s -> {
          s.inbox().finishDelivery(d, at(3));
          return true;
        });
    both("a duplicate after it finished", s -> s.inbox().claimDelivery(d, at(300), at(180)));
    both(
        "a release after it finished",
        s -> {
          s.inbox().releaseDelivery(d);
          return s.inbox().claimDelivery(d, at(301), at(181));
        });
  }

  private void execute(String statement) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(statement);
    } catch (SQLException e) {
      throw new IllegalStateException(statement, e);
    }
  }
}
