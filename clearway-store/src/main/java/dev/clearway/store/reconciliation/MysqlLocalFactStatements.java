package dev.clearway.store.reconciliation;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The local-fact statements ({@link JdbcLocalFacts}, the movements of {@link JdbcAgreeingLines}) as
 * the MySQL family runs them, derived from the PostgreSQL text by exact replacement of the parts
 * that differ, so that both read the same rows by the same rules:
 *
 * <ul>
 *   <li>the attempt that speaks for a flow is a {@code LEFT JOIN LATERAL (... LIMIT 1)} on
 *       PostgreSQL; MariaDB has no LATERAL, so it is the attempt whose id a correlated scalar
 *       subquery (same order, LIMIT 1) names;
 *   <li>{@code NULL::bigint} casts are plain NULLs (a UNION's column takes its type from all its
 *       branches);
 *   <li>{@code = ANY (?)} over an array becomes {@code IN (?, ...)} with one parameter per value
 *       ({@link #inList});
 *   <li>{@code DISTINCT ON (key)} is dropped: the rows come ordered by key then id, and the caller
 *       keeps the first row of each key.
 * </ul>
 */
final class MysqlLocalFactStatements {
  private static final String ATTEMPT_OF_FLOW =
      """
      LEFT JOIN payment_attempt a
        ON a.id = (SELECT pa.id
                     FROM payment_attempt pa
                    WHERE pa.trade_order_no = f.trade_order_no
                    ORDER BY (pa.status = 'SUCCEEDED') DESC, pa.seq DESC
                    LIMIT 1)
      LEFT JOIN channel_account ca ON ca.id = a.channel_account_id""";

  private static final String NO_REFUND =
      "NULL AS r_id, NULL AS r_no, NULL AS r_status, NULL AS r_amount,"
          + " NULL AS r_version, NULL AS r_updated, ";
  private static final String PG_NO_REFUND =
      "NULL::bigint AS r_id, NULL AS r_no, NULL AS r_status, NULL::bigint AS r_amount,"
          + " NULL::bigint AS r_version, NULL::timestamptz AS r_updated, ";

  private static final Map<String, String> TRANSLATED = new ConcurrentHashMap<>();

  private MysqlLocalFactStatements() {}

  /** The MySQL family's form of {@code postgres}, a local-fact statement. */
  static String of(String postgres) {
    return TRANSLATED.computeIfAbsent(postgres, MysqlLocalFactStatements::translate);
  }

  private static String translate(String postgres) {
    String sql =
        postgres
            .replace(LocalFactRows.ATTEMPT_OF_FLOW, ATTEMPT_OF_FLOW)
            .replace(PG_NO_REFUND, NO_REFUND)
            .replace("SELECT DISTINCT ON (a.provider_idempotency_key) ", "SELECT ");
    if (sql.contains("LATERAL") || sql.contains("::") || sql.contains("DISTINCT ON")) {
      throw new IllegalStateException("a PostgreSQL construct is left in: " + sql);
    }
    return sql;
  }

  /** {@code sql} with its one {@code = ANY (?)} as an IN list of {@code n} parameters. */
  static String inList(String sql, int n) {
    if (!sql.contains("= ANY (?)")) {
      throw new IllegalArgumentException("no = ANY (?) in " + sql);
    }
    return sql.replace("= ANY (?)", "IN (" + MysqlReconStatements.placeholders(n) + ")");
  }
}
