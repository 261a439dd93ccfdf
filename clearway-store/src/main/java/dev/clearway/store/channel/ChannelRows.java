package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.spi.PaymentParty;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** Row mappers of the channel tables. */
final class ChannelRows {

  static final String ATTEMPT_COLUMNS =
      "id, trade_order_no, seq, channel_account_id, origin, previous_attempt_id,"
          + " provider_idempotency_key, create_request_hash, provider_payment_id, status,"
          + " result_certainty, error_code, failover_eligible, customer_action_pending, amount,"
          + " currency, payment_method, replay_count, version, created_at, sub_merchant, payer_ref";

  static final String TASK_COLUMNS =
      "id, attempt_id, channel_account_id, status, strategy, due_at, attempt_count, lease_owner,"
          + " lease_until, policy_version, version";

  private ChannelRows() {}

  static Attempt attempt(ResultSet rs) throws SQLException {
    long previous = rs.getLong("previous_attempt_id");
    Long previousId = rs.wasNull() ? null : previous;
    return new Attempt(
        rs.getLong("id"),
        rs.getString("trade_order_no"),
        rs.getInt("seq"),
        rs.getLong("channel_account_id"),
        AttemptOrigin.valueOf(rs.getString("origin")),
        previousId,
        rs.getString("provider_idempotency_key"),
        rs.getString("create_request_hash"),
        rs.getString("provider_payment_id"),
        AttemptStatus.valueOf(rs.getString("status")),
        ResultCertainty.valueOf(rs.getString("result_certainty")),
        rs.getString("error_code"),
        rs.getBoolean("failover_eligible"),
        rs.getBoolean("customer_action_pending"),
        new Attempt.Money(
            rs.getLong("amount"),
            rs.getString("currency"),
            rs.getString("payment_method"),
            new PaymentParty(rs.getString("sub_merchant"), rs.getString("payer_ref"))),
        rs.getInt("replay_count"),
        rs.getLong("version"),
        instant(rs, "created_at"));
  }

  static RecoveryTask task(ResultSet rs) throws SQLException {
    return new RecoveryTask(
        rs.getLong("id"),
        rs.getLong("attempt_id"),
        rs.getLong("channel_account_id"),
        RecoveryTask.TaskStatus.valueOf(rs.getString("status")),
        rs.getString("strategy"),
        instant(rs, "due_at"),
        rs.getInt("attempt_count"),
        rs.getString("lease_owner"),
        instant(rs, "lease_until"),
        rs.getString("policy_version"),
        rs.getLong("version"));
  }

  static ChannelAccount account(ResultSet rs) throws SQLException {
    Set<String> methods =
        Arrays.stream(rs.getString("payment_methods").split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .collect(Collectors.toUnmodifiableSet());
    return new ChannelAccount(
        rs.getLong("id"),
        rs.getString("channel"),
        rs.getString("account_ref"),
        rs.getString("failure_domain"),
        methods,
        rs.getInt("priority"),
        rs.getBoolean("enabled"));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    Timestamp ts = rs.getTimestamp(column);
    return ts == null ? null : ts.toInstant();
  }
}
