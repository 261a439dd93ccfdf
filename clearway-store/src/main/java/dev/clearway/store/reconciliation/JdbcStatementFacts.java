package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.reconciliation.port.StatementFacts;
import dev.clearway.store.CursorStream;
import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The money lines of the statements in force ({@code statement_file.status = 'IMPORTED'}) as facts:
 * a superseded or refused file is never read. Amounts on a fact are positive minor units (the
 * statement stores them signed as the merchant's balance moves). The formats store only lines whose
 * movement happened, so every fact is SUCCEEDED. A FEE line (a fee or payout grouping many
 * payments) names no payment and is not a fact of one.
 */
public final class JdbcStatementFacts implements StatementFacts {

  static final String COLUMNS =
      "l.file_id, l.line_no, l.kind, l.trade_order_no, l.refund_order_no, l.attempt_key,"
          + " l.psp_reference, l.amount, l.fee, l.currency, l.at, f.account_ref";

  static final String IN_FORCE =
      " FROM statement_line l JOIN statement_file f ON f.id = l.file_id"
          + " WHERE f.account_ref = ? AND f.status = 'IMPORTED'"
          + " AND l.kind IN ('CHARGE', 'REFUND', 'ADJUSTMENT')";

  private static final String LINES =
      "SELECT " + COLUMNS + IN_FORCE + " AND l.file_id = ? ORDER BY l.line_no";

  private static final String BY_TRADE_OR_KEY =
      "SELECT "
          + COLUMNS
          + IN_FORCE
          + " AND l.trade_order_no = ?"
          + "\nUNION\nSELECT "
          + COLUMNS
          + IN_FORCE
          + " AND l.attempt_key = ?"
          + "\nORDER BY at, file_id, line_no";

  private static final String BY_REFUND =
      "SELECT "
          + COLUMNS
          + IN_FORCE
          + " AND l.kind = 'REFUND' AND l.refund_order_no = ? ORDER BY l.at, l.file_id, l.line_no";

  private static final String IMPORTED =
      "SELECT 1 FROM statement_file WHERE account_ref = ? AND statement_day = ?"
          + " AND status = 'IMPORTED'";

  /** The total of a file's FEE lines; NULL when it has none. */
  private static final String GROUPED_FEES =
      "SELECT sum(CASE WHEN fee <> 0 THEN abs(fee) ELSE abs(amount) END) FROM statement_line"
          + " WHERE file_id = ? AND kind = 'FEE'";

  private final DataSource dataSource;
  private final Sql sql;

  public JdbcStatementFacts(DataSource dataSource) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
  }

  @Override
  public Stream<StatementFact> lines(long fileId, String account) {
    return CursorStream.open(
        dataSource,
        LINES,
        ps -> {
          ps.setString(1, account);
          ps.setLong(2, fileId);
        },
        JdbcStatementFacts::map);
  }

  @Override
  public List<StatementFact> linesFor(String account, String tradeOrderNo, String attemptKey) {
    return sql.query(
        BY_TRADE_OR_KEY,
        ps -> {
          ps.setString(1, account);
          ps.setString(2, tradeOrderNo);
          ps.setString(3, account);
          ps.setString(4, attemptKey);
        },
        JdbcStatementFacts::map);
  }

  @Override
  public List<StatementFact> refundLinesFor(String account, String refundOrderNo) {
    return sql.query(
        BY_REFUND,
        ps -> {
          ps.setString(1, account);
          ps.setString(2, refundOrderNo);
        },
        JdbcStatementFacts::map);
  }

  @Override
  public boolean imported(String account, LocalDate day) {
    return !sql.query(
            IMPORTED,
            ps -> {
              ps.setString(1, account);
              ps.setObject(2, day);
            },
            rs -> rs.getInt(1))
        .isEmpty();
  }

  @Override
  public OptionalLong groupedFees(long fileId) {
    List<Long> total =
        sql.query(
            GROUPED_FEES,
            ps -> ps.setLong(1, fileId),
            rs -> rs.getObject(1) == null ? null : rs.getLong(1));
    return total.isEmpty() || total.get(0) == null
        ? OptionalLong.empty()
        : OptionalLong.of(total.get(0));
  }

  static StatementFact map(ResultSet rs) throws SQLException {
    return new StatementFact(
        kind(rs.getString("kind")),
        LineOutcome.SUCCEEDED,
        rs.getString("trade_order_no"),
        rs.getString("refund_order_no"),
        rs.getString("attempt_key"),
        rs.getString("psp_reference"),
        Math.abs(rs.getLong("amount")),
        rs.getLong("fee"),
        rs.getString("currency"),
        rs.getObject("at", OffsetDateTime.class).toInstant(),
        rs.getString("account_ref"));
  }

  private static StatementKind kind(String stored) {
    return switch (stored) {
      case "CHARGE" -> StatementKind.CHARGE;
      case "REFUND" -> StatementKind.REFUND;
      case "ADJUSTMENT" -> StatementKind.ADJUSTMENT;
      default -> throw new IllegalStateException("statement line kind " + stored + " is no fact");
    };
  }
}
