package dev.clearway.store.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The channel store's money-safety rules, on the real database (ground rule 5). */
class JdbcChannelStoreTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final String CREATOR = "creator/1";

  private final DataSource dataSource = TestDatabase.get().dataSource();
  private final JdbcChannelStore store = new JdbcChannelStore(dataSource);

  @BeforeEach
  void clean() {
    execute(
        "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
            + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
            + " payment_order, channel_account, outbox_event CASCADE");
    store.upsertAccount(
        new ChannelAccount(1, "stripe", "acct_1", "psp:a", Set.of("card"), 1, true));
  }

  private Attempt newAttempt(String trade) {
    store.openOrder(new PaymentOrder(trade, 500, "EUR", "card", false), T0);
    return store
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

  @Test
  void theAttemptItsEvidenceHistoryOutboxAndTaskCommitTogetherOrNotAtAll() {
    Attempt a = newAttempt("t_atomic");
    // Make the outbox insert fail: an event with the id this transition would write exists.
    execute(
        "INSERT INTO outbox_event (event_id, event_type, aggregate_id, payload, created_at)"
            + " VALUES ('attempt-"
            + a.id()
            + "-v1', 'X', 0, '{}', now())");

    assertThatThrownBy(
            () ->
                store.record(
                    new AttemptChange(
                        a,
                        AttemptStatus.SUCCEEDED,
                        evidence(ResultCertainty.CONFIRMED_SUCCESS),
                        new TaskChange.Resolve(),
                        false,
                        null,
                        null),
                    T0))
        .isInstanceOf(RuntimeException.class);

    assertThat(store.attempt(a.id()).orElseThrow().status()).isEqualTo(AttemptStatus.CREATED);
    assertThat(count("SELECT count(*) FROM provider_evidence")).isZero();
    assertThat(count("SELECT count(*) FROM payment_attempt_history")).isZero();
    assertThat(text("SELECT status FROM recovery_task")).isEqualTo("LEASED");
    assertThat(text("SELECT lease_owner FROM recovery_task")).isEqualTo(CREATOR);
  }

  @Test
  void aStaleVersionLosesAndWritesNothing() {
    Attempt a = newAttempt("t_stale");
    assertThat(
            store.record(
                new AttemptChange(
                    a,
                    AttemptStatus.UNKNOWN,
                    evidence(ResultCertainty.UNKNOWN),
                    new TaskChange.Reschedule(T0.plusSeconds(5), "RETRIEVE", "timeout"),
                    false,
                    null,
                    null),
                T0))
        .isEqualTo(RecordResult.RECORDED);

    RecordResult late =
        store.record(
            new AttemptChange(
                a, // the version read before the first record
                AttemptStatus.SUCCEEDED,
                evidence(ResultCertainty.CONFIRMED_SUCCESS),
                new TaskChange.Resolve(),
                false,
                null,
                null),
            T0);

    assertThat(late).isEqualTo(RecordResult.LOST);
    assertThat(store.attempt(a.id()).orElseThrow().status()).isEqualTo(AttemptStatus.UNKNOWN);
    assertThat(count("SELECT count(*) FROM provider_evidence")).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM outbox_event")).isZero();
  }

  @Test
  void aFinalAttemptCannotChangeAndNoAttemptIsEverDeleted() {
    Attempt a = newAttempt("t_final");
    store.record(
        new AttemptChange(
            a,
            AttemptStatus.FAILED,
            evidence(ResultCertainty.DEFINITE_FAILURE),
            new TaskChange.Resolve(),
            false,
            null,
            null),
        T0);

    assertThatThrownBy(
            () ->
                execute(
                    "UPDATE payment_attempt SET status = 'SUCCEEDED', version = version + 1"
                        + " WHERE id = "
                        + a.id()))
        .hasMessageContaining("final");
    assertThatThrownBy(() -> execute("DELETE FROM payment_attempt WHERE id = " + a.id()))
        .hasMessageContaining("never deleted");
  }

  @Test
  void onlyOneLiveAttemptPerOrderAndNoneOnAClosedOrder() {
    newAttempt("t_live");
    Optional<Attempt> second =
        store.insertAttempt(
            new NewAttempt(
                "t_live",
                1,
                AttemptOrigin.FAILOVER,
                1L,
                "",
                new Attempt.Money(500, "EUR", "pm_card_visa"),
                id -> new String[] {"k" + id, "0".repeat(64)}),
            new NewTask("RETRIEVE", T0, "v1", CREATOR),
            T0);
    assertThat(second).isEmpty();
    assertThat(store.closeOrder("t_live", "test", T0)).isFalse(); // an attempt is live

    assertThat(store.closeOrder("t_never_paid", "test", T0)).isTrue();
    assertThat(store.order("t_never_paid").orElseThrow().closed()).isTrue();
  }

  @Test
  void concurrentClaimsNeverShareATask() throws Exception {
    for (int i = 0; i < 40; i++) {
      newAttempt("t_claim_" + i);
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<List<RecoveryTask>>> claims = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      String owner = "w" + w;
      Callable<List<RecoveryTask>> claim =
          () -> store.claimDue(owner, 15, Duration.ofSeconds(30), T0.plusSeconds(60));
      claims.add(pool.submit(claim));
    }
    Set<Long> seen = new HashSet<>();
    int total = 0;
    for (Future<List<RecoveryTask>> f : claims) {
      for (RecoveryTask t : f.get()) {
        assertThat(seen.add(t.id())).as("task %d claimed twice", t.id()).isTrue();
        total++;
      }
    }
    pool.shutdown();
    assertThat(total).isEqualTo(40);
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
