package dev.clearway.store.reconciliation;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.LocalAttempt;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.LocalRefund;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.store.GoalKeyColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * The columns of one local view (a flow {@code f}, its attempt {@code a} at account {@code ca}, and
 * a refund {@code r}, each side possibly null) and their mapping to a {@link LocalFact}.
 */
final class LocalFactRows {

  /**
   * Whether a refund of a charge that must not stand exists (1) or went through (2): the attempt's
   * compensation (PENDING or MANUAL is under way, REFUNDED went through), or the flow's LATE_CHARGE
   * refund order (FAIL or CLOSED is none). One probe of each table's key.
   */
  private static final String COMPENSATION =
      """
      CASE GREATEST(
          COALESCE((SELECT CASE k.status WHEN 'REFUNDED' THEN 2 ELSE 1 END
                      FROM attempt_compensation k WHERE k.attempt_id = a.id), 0),
          COALESCE((SELECT max(CASE l.status WHEN 'SUCCESS' THEN 2 WHEN 'FAIL' THEN 0
                                             WHEN 'CLOSED' THEN 0 ELSE 1 END)
                      FROM refund_order l WHERE l.flow_id = f.id AND l.kind = 'LATE_CHARGE'), 0))
        WHEN 2 THEN 'SETTLED' WHEN 1 THEN 'OPEN' ELSE 'NONE'
      END""";

  private static final String FLOW_AND_ATTEMPT =
      "f.id AS f_id, f.merchant_id, f.user_id, f.scene, f.biz_key, f.trade_order_no,"
          + " f.refund_order_no AS f_refund_no, f.status AS f_status, f.version AS f_version,"
          + " f.amount AS f_amount, f.currency AS f_currency, f.created_at AS f_created,"
          + " f.updated_at AS f_updated, a.id AS a_id, a.provider_idempotency_key AS a_key,"
          + " a.status AS a_status, a.version AS a_version, ca.account_ref AS a_account, ";

  /** A view with the refund order {@code r}. */
  static final String WITH_REFUND_ORDER =
      FLOW_AND_ATTEMPT
          + "r.id AS r_id, r.refund_no AS r_no, r.status AS r_status, r.amount AS r_amount,"
          + " r.version AS r_version, r.updated_at AS r_updated, "
          + COMPENSATION
          + " AS compensation";

  /** A view without a refund. */
  static final String WITHOUT_REFUND =
      FLOW_AND_ATTEMPT
          + "NULL::bigint AS r_id, NULL AS r_no, NULL AS r_status, NULL::bigint AS r_amount,"
          + " NULL::bigint AS r_version, NULL::timestamptz AS r_updated, "
          + COMPENSATION
          + " AS compensation";

  /**
   * A view whose refund is the compensation {@code k} of a charged attempt recorded FAILED. It is
   * no refund order: its id is the attempt's id negated, so no refund order is ever taken for it.
   */
  static final String WITH_COMPENSATION =
      FLOW_AND_ATTEMPT
          + "-k.attempt_id AS r_id, k.refund_no AS r_no,"
          + " CASE k.status WHEN 'REFUNDED' THEN 'SUCCESS' WHEN 'PENDING' THEN 'PROCESSING'"
          + " ELSE 'ABNORMAL' END AS r_status, k.amount AS r_amount, k.version AS r_version,"
          + " k.updated_at AS r_updated, "
          + COMPENSATION
          + " AS compensation";

  /** The attempt that speaks for a flow: its charged one, else its latest. */
  static final String ATTEMPT_OF_FLOW =
      """
      LEFT JOIN LATERAL (
        SELECT pa.id, pa.provider_idempotency_key, pa.status, pa.version, pa.channel_account_id
          FROM payment_attempt pa
         WHERE pa.trade_order_no = f.trade_order_no
         ORDER BY (pa.status = 'SUCCEEDED') DESC, pa.seq DESC
         LIMIT 1) a ON TRUE
      LEFT JOIN channel_account ca ON ca.id = a.channel_account_id""";

  private LocalFactRows() {}

  /**
   * @param walletAccount the account of a flow paid without the channel layer (no attempt)
   */
  static LocalFact map(ResultSet rs, String walletAccount) throws SQLException {
    long attemptId = rs.getLong("a_id");
    LocalAttempt attempt =
        rs.wasNull()
            ? null
            : new LocalAttempt(
                attemptId,
                rs.getString("a_key"),
                AttemptStatus.valueOf(rs.getString("a_status")),
                rs.getLong("a_version"));
    return new LocalFact(
        rs.getLong("f_id"),
        GoalKeyColumns.read(rs),
        rs.getString("trade_order_no"),
        rs.getString("f_refund_no"),
        FlowStatus.valueOf(rs.getString("f_status")),
        rs.getLong("f_version"),
        attempt,
        refund(rs),
        rs.getLong("f_amount"),
        rs.getString("f_currency").strip(),
        attempt == null ? walletAccount : rs.getString("a_account"),
        instant(rs, "f_created"),
        instant(rs, "f_updated"),
        CompensationState.valueOf(rs.getString("compensation")));
  }

  private static LocalRefund refund(ResultSet rs) throws SQLException {
    String number = rs.getString("r_no");
    if (number == null) {
      return null;
    }
    return new LocalRefund(
        rs.getLong("r_id"),
        number,
        RefundStatus.valueOf(rs.getString("r_status")),
        rs.getLong("r_amount"),
        rs.getLong("r_version"),
        instant(rs, "r_updated"));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
