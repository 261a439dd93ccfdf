package dev.clearway.store.reconciliation;

/** The statements of {@link JdbcAgreeingLines} on the agreeing lines of a file (PostgreSQL). */
final class AgreeingLinesSql {

  /**
   * The breaks of the agreeing lines: the sorted array of the file's money lines that do not agree
   * (the rows of the table that say so, a handful in a clean file). A line of the file is one of
   * them when it is the element its {@code width_bucket} (the number of elements not above it)
   * points at.
   */
  static final String BREAKS =
      """
      WITH nb AS (SELECT COALESCE(array_agg(g.line_no ORDER BY g.line_no), '{}') AS breaks
                    FROM recon_lines g WHERE NOT g.agreed),
      """;

  /** The file's agreeing lines, from the file's money lines and {@link #BREAKS}. */
  static final String AGREEING =
      """
      SELECT l.line_no,
             nb.breaks[width_bucket(l.line_no, nb.breaks)] IS DISTINCT FROM l.line_no AS agreed
        FROM statement_line l, nb
       WHERE l.file_id = ? AND l.kind IN ('CHARGE', 'REFUND', 'ADJUSTMENT')""";

  /**
   * Records the runs ({@code runs}: first_line, last_line) of the verdict of the agreeing lines,
   * each a row of {@code statement_line_agreed}, which settle their payments (SETTLED at version 0,
   * as of {@code at}) unless a {@code payment_settlement} row overrides it (see {@code
   * payment_settlement_in_effect}), and answers the number of agreeing lines. Parameters: those of
   * the runs, then file_id, at.
   */
  static final String RECORD =
      """
      ins AS (INSERT INTO statement_line_agreed (file_id, first_line, last_line, at)
              SELECT ?::bigint, runs.first_line, runs.last_line, ?::timestamptz FROM runs)
      """;

  /**
   * The runs of a file reconciled for the first time: every agreeing line settles, and a run is
   * broken by every money line that does not agree. A line's run is the number of breaks before it
   * ({@code width_bucket}, a binary search in the sorted breaks), so the file's lines are grouped
   * by hash in one pass, never sorted (sorting a million lines by number to count the breaks before
   * each took twice as long). Parameters: file_id, file_id, at.
   */
  static final String SETTLE =
      BREAKS
          + """
          runs AS (SELECT min(a.line_no) AS first_line, max(a.line_no) AS last_line,
                          count(*) AS lines
                     FROM (%s) a, nb
                    WHERE a.agreed
                    GROUP BY width_bucket(a.line_no, nb.breaks)),
          """
              .formatted(AGREEING)
          + RECORD
          + "SELECT COALESCE(sum(runs.lines), 0) FROM runs";

  /**
   * The runs of a file reconciled before: an agreeing line settles unless a run of an earlier
   * reconciliation holds it (the runs of a file never overlap), and a run is broken by every money
   * line that does not settle; the runs are probed once per line (materialized). Parameters:
   * file_id, file_id, file_id, at.
   */
  static final String SETTLE_UNCOVERED =
      BREAKS
          + """
          s AS MATERIALIZED (
            SELECT a.line_no, a.agreed,
                   a.agreed AND NOT EXISTS (SELECT 1 FROM statement_line_agreed r
                                             WHERE r.file_id = ?
                                               AND a.line_no BETWEEN r.first_line AND r.last_line)
                     AS settles
              FROM (%s) a),
          runs AS (SELECT min(v.line_no) AS first_line, max(v.line_no) AS last_line
                     FROM (SELECT s.line_no FROM s WHERE s.settles) v,
                          (SELECT COALESCE(array_agg(s.line_no ORDER BY s.line_no), '{}') AS breaks
                             FROM s WHERE NOT s.settles) b
                    GROUP BY width_bucket(v.line_no, b.breaks)),
          """
              .formatted(AGREEING)
          + RECORD
          + "SELECT count(*) FROM s WHERE s.agreed";

  /**
   * A view whose charge an agreeing line showed is dropped unless it answers for a refund too (a
   * refund order's view, or a REFUNDED flow's own refund): that one comes with charge_shown. The
   * agreeing lines ({@code agreed}) are the file's money lines that the table does not hold as not
   * agreeing, read from the file by its trade order no. The attempts' charge views are split so
   * that the day's attempts are anti-joined to the agreed set by their own trade order no, before
   * any flow is read: those of no agreeing line, then those of an agreeing line whose flow was
   * refunding (a BIZ_SUCCESS flow never becomes REFUNDED) and now is REFUNDED. Parameters: file_id,
   * those of {@link JdbcLocalFacts#movements}, then account, from, to.
   */
  static final String UNSEEN =
      """
      WITH agreed AS NOT MATERIALIZED (
        SELECT l.trade_order_no FROM statement_line l
         WHERE l.file_id = ? AND l.kind IN ('CHARGE', 'REFUND', 'ADJUSTMENT')
           AND NOT EXISTS (SELECT 1 FROM recon_lines g
                            WHERE NOT g.agreed AND g.line_no = l.line_no))
      """
          + JdbcLocalFacts.movements(
              "NOT EXISTS (SELECT 1 FROM agreed g WHERE g.trade_order_no = a.trade_order_no)",
              "NOT EXISTS (SELECT 1 FROM agreed g"
                  + " WHERE g.trade_order_no = f.trade_order_no AND f.status <> 'REFUNDED')",
              "EXISTS (SELECT 1 FROM agreed g WHERE g.trade_order_no = f.trade_order_no)")
          + "UNION ALL\nSELECT "
          + LocalFactRows.WITHOUT_REFUND
          + ", TRUE AS charge_shown"
          + """

            FROM payment_attempt a
            JOIN channel_account ca ON ca.id = a.channel_account_id
            JOIN pay_flow f ON f.trade_order_no = a.trade_order_no
           WHERE a.trade_order_no IN (SELECT g.trade_order_no FROM recon_lines g
                                     WHERE g.agreed AND g.refunding)
             AND a.status = 'SUCCEEDED' AND f.status = 'REFUNDED'
             AND ca.account_ref = ?
             AND a.updated_at >= ? AND a.updated_at < ?
          """;

  private AgreeingLinesSql() {}
}
