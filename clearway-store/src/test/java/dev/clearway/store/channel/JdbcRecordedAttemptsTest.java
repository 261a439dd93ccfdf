package dev.clearway.store.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.RecordedAttempt;
import dev.clearway.core.channel.policy.RecordedHistory;
import dev.clearway.store.Sql;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The dry run's recorded history read from the channel tables of the real PostgreSQL. */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcRecordedAttemptsTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private final DataSource dataSource = TestDatabase.get().dataSource();
  private final JdbcRecordedAttempts attempts = new JdbcRecordedAttempts(dataSource);

  @BeforeEach
  void clean() throws SQLException {
    TestDatabase.get().truncateChannelTables();
    exec(
        "INSERT INTO channel_account"
            + " (id, channel, account_ref, failure_domain, payment_methods, priority)"
            + " VALUES (1, 'stripe', 'acct_a', 'psp:stripe-a', 'card', 1),"
            + " (2, 'wechat', 'mch_b', 'psp:wechat', 'wallet', 2)");
  }

  @Test
  void readsChannelMethodFamilyResolutionAndRecoveryCalls() throws SQLException {
    order("T-1", "card");
    attempt(101, "T-1", 1, "SUCCEEDED", T0, T0.plusSeconds(90));
    history(101, 1, "CREATED", "UNKNOWN", T0.plusSeconds(1));
    history(101, 2, "UNKNOWN", "SUCCEEDED", T0.plusSeconds(40));
    evidence(101, "RESPONSE", "CREATE", T0.plusSeconds(1));
    evidence(101, "RESPONSE", "REPLAY", T0.plusSeconds(11));
    evidence(101, "QUERY", "RETRIEVE", T0.plusSeconds(21));
    evidence(101, "QUERY", "RETRIEVE_AFTER_WEBHOOK", T0.plusSeconds(39));
    evidence(101, "CALLBACK", "WEBHOOK", T0.plusSeconds(40));

    List<RecordedAttempt> read = readAll(T0.minusSeconds(60), 10);

    assertThat(read)
        .containsExactly(
            new RecordedAttempt(
                101, "stripe", "card", Operation.CREATE, T0, T0.plusSeconds(40), 3));
  }

  @Test
  void aLiveAttemptIsUnresolvedAndAFinalOneWithoutHistoryResolvesAtItsLastUpdate()
      throws SQLException {
    order("T-live", "wallet");
    attempt(201, "T-live", 2, "UNKNOWN", T0, T0.plusSeconds(5));
    history(201, 1, "CREATED", "UNKNOWN", T0.plusSeconds(5));
    evidence(201, "QUERY", "RETRIEVE", T0.plusSeconds(20));
    order("T-final", "card");
    attempt(202, "T-final", 1, "FAILED", T0.plusSeconds(1), T0.plusSeconds(7));

    List<RecordedAttempt> read = readAll(T0, 10);

    assertThat(read)
        .containsExactly(
            new RecordedAttempt(201, "wechat", "wallet", Operation.CREATE, T0, null, 1),
            new RecordedAttempt(
                202, "stripe", "card", Operation.CREATE, T0.plusSeconds(1), T0.plusSeconds(7), 0));
  }

  @Test
  void onlyAttemptsSinceTheStartOldestFirstPageByPage() throws SQLException {
    for (int i = 0; i < 5; i++) {
      order("T-" + i, "card");
      attempt(300 + i, "T-" + i, 1, "SUCCEEDED", T0.plus(Duration.ofMinutes(i)), T0);
    }
    // Two attempts created at the same instant: the id orders them, and no page loses one.
    order("T-tie", "card");
    attempt(299, "T-tie", 1, "SUCCEEDED", T0.plus(Duration.ofMinutes(1)), T0);

    assertThat(readAll(T0.plus(Duration.ofMinutes(2)), 100))
        .extracting(RecordedAttempt::attemptId)
        .containsExactly(302L, 303L, 304L);
    assertThat(readAll(T0, 1))
        .extracting(RecordedAttempt::attemptId)
        .containsExactly(300L, 299L, 301L, 302L, 303L, 304L);
    try (RecordedHistory.Reading reading = attempts.open(T0)) {
      assertThat(reading.next(2))
          .extracting(RecordedAttempt::attemptId)
          .containsExactly(300L, 299L);
      assertThat(reading.next(3))
          .extracting(RecordedAttempt::attemptId)
          .containsExactly(301L, 302L, 303L);
      assertThat(reading.next(3)).extracting(RecordedAttempt::attemptId).containsExactly(304L);
      assertThat(reading.next(3)).isEmpty();
      assertThatThrownBy(() -> reading.next(0)).isInstanceOf(IllegalArgumentException.class);
    }
    try (RecordedHistory.Reading reading = attempts.open(T0.plus(Duration.ofHours(1)))) {
      assertThat(reading.asOf()).isNull();
      assertThat(reading.next(100)).isEmpty();
    }
  }

  @Test
  void theEndOfHistoryIsTheLatestStartOrResolution() throws SQLException {
    order("T-a", "card");
    attempt(401, "T-a", 1, "SUCCEEDED", T0, T0.plusSeconds(500));
    history(401, 1, "CREATED", "SUCCEEDED", T0.plusSeconds(90));
    order("T-b", "card");
    attempt(402, "T-b", 1, "UNKNOWN", T0.plusSeconds(60), T0.plusSeconds(60));
    try (RecordedHistory.Reading reading = attempts.open(T0)) {
      // The resolution (history at +90 s), not the row's last update (+500 s).
      assertThat(reading.asOf()).isEqualTo(T0.plusSeconds(90));
    }
    order("T-c", "card");
    attempt(403, "T-c", 1, "UNKNOWN", T0.plusSeconds(120), T0.plusSeconds(120));
    try (RecordedHistory.Reading reading = attempts.open(T0)) {
      assertThat(reading.asOf()).isEqualTo(T0.plusSeconds(120));
    }
  }

  @Test
  void aReadSeesOneSnapshotWhateverIsWrittenWhileItRuns() throws SQLException {
    for (int i = 0; i < 3; i++) {
      order("T-s" + i, "card");
      attempt(500 + i, "T-s" + i, 1, "UNKNOWN", T0.plusSeconds(i), T0.plusSeconds(i));
    }
    try (RecordedHistory.Reading reading = attempts.open(T0)) {
      assertThat(reading.asOf()).isEqualTo(T0.plusSeconds(2));
      assertThat(reading.next(2)).hasSize(2);
      // Written by another connection after the read began: not part of this read.
      order("T-late", "card");
      attempt(599, "T-late", 1, "UNKNOWN", T0.plusSeconds(30), T0.plusSeconds(30));
      history(500, 1, "UNKNOWN", "SUCCEEDED", T0.plusSeconds(40));
      assertThat(reading.next(10)).extracting(RecordedAttempt::attemptId).containsExactly(502L);
    }
    assertThat(readAll(T0, 10)).extracting(RecordedAttempt::attemptId).contains(599L);
  }

  /** Every attempt since {@code from}, read in pages of {@code pageSize}. */
  private List<RecordedAttempt> readAll(Instant from, int pageSize) {
    List<RecordedAttempt> all = new ArrayList<>();
    try (RecordedHistory.Reading reading = attempts.open(from)) {
      List<RecordedAttempt> page;
      do {
        page = reading.next(pageSize);
        all.addAll(page);
      } while (page.size() == pageSize);
    }
    return all;
  }

  private void order(String tradeOrderNo, String method) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO payment_order (trade_order_no, amount, currency, payment_method,"
                    + " status, created_at, updated_at) VALUES (?, 1500, 'EUR', ?, 'OPEN', ?, ?)")) {
      ps.setString(1, tradeOrderNo);
      ps.setString(2, method);
      ps.setObject(3, Sql.ts(T0));
      ps.setObject(4, Sql.ts(T0));
      ps.executeUpdate();
    }
  }

  /** Inserted directly in its status; the token in payment_method is not the method family. */
  private void attempt(
      long id, String tradeOrderNo, long account, String status, Instant created, Instant updated)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO payment_attempt (id, trade_order_no, seq, channel_account_id, origin,"
                    + " provider_idempotency_key, create_request_hash, status, result_certainty,"
                    + " amount, currency, payment_method, created_at, updated_at)"
                    + " VALUES (?, ?, 1, ?, 'INITIAL', ?, ?, ?, 'CERTAIN', 1500, 'EUR',"
                    + " 'pm_card_visa', ?, ?)")) {
      ps.setLong(1, id);
      ps.setString(2, tradeOrderNo);
      ps.setLong(3, account);
      ps.setString(4, "key-" + id);
      ps.setString(5, "0".repeat(64));
      ps.setString(6, status);
      ps.setObject(7, Sql.ts(created));
      ps.setObject(8, Sql.ts(updated));
      ps.executeUpdate();
    }
  }

  private void history(long attemptId, long version, String from, String to, Instant at)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO payment_attempt_history"
                    + " (attempt_id, version, from_status, to_status, certainty, source, at)"
                    + " VALUES (?, ?, ?, ?, 'CERTAIN', 'QUERY', ?)")) {
      ps.setLong(1, attemptId);
      ps.setLong(2, version);
      ps.setString(3, from);
      ps.setString(4, to);
      ps.setObject(5, Sql.ts(at));
      ps.executeUpdate();
    }
  }

  private void evidence(long attemptId, String source, String operation, Instant at)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO provider_evidence"
                    + " (attempt_id, source, operation, certainty, observed_at)"
                    + " VALUES (?, ?, ?, 'CERTAIN', ?)")) {
      ps.setLong(1, attemptId);
      ps.setString(2, source);
      ps.setString(3, operation);
      ps.setObject(4, Sql.ts(at));
      ps.executeUpdate();
    }
  }

  private void exec(String statement) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }
}
