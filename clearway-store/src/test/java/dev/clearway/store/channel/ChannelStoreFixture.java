package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Set;
import javax.sql.DataSource;

/** The channel tables emptied, one account, and new attempts as the gateway inserts them. */
final class ChannelStoreFixture {

  static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  static final String CREATOR = "creator/1";

  final DataSource dataSource = TestDatabase.get().dataSource();
  final ChannelStores stores = JdbcChannelStores.create(dataSource, TestDatabase.get().dialect());

  /** Empties the channel tables and inserts account 1. */
  void clean() {
    TestDatabase.get()
        .truncate(
            "payment_attempt_history",
            "provider_evidence",
            "recovery_task",
            "attempt_compensation",
            "channel_refund",
            "channel_webhook_inbox",
            "payment_attempt_action",
            "payment_attempt",
            "payment_order",
            "merchant_channel",
            "channel_account",
            "outbox_event");
    stores
        .accounts()
        .upsertAccount(new ChannelAccount(1, "stripe", "acct_1", "psp:a", Set.of("card"), 1, true));
  }

  /** A new attempt whose task {@link #CREATOR} holds until T0 + 10 s. */
  Attempt newAttempt(String trade) {
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

  static ProviderEvidence evidence(ResultCertainty c) {
    return new ProviderEvidence(
        EvidenceSource.QUERY,
        "RETRIEVE",
        new PspOutcome(c, "s", "pi_1", null, false, false, "req_1", "a".repeat(64)),
        "v1",
        T0);
  }

  void execute(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** The time in the first column of the first row of {@code sql}. */
  Instant instant(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getObject(1, java.time.OffsetDateTime.class).toInstant() : null;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  long count(String sql) {
    return Long.parseLong(text(sql));
  }

  String text(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
