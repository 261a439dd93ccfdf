package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.store.CursorStream;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The local side of reconciliation, read from the flow, channel and refund tables; each lookup is
 * one indexed read. The account of a payment paid through the channel layer is the account of its
 * attempt ({@code channel_account.account_ref}); a flow without any attempt was paid through the
 * plain wallet and belongs to the wallet's account, named at construction.
 *
 * <p>Charge time: an attempt's SUCCEEDED is final, so its {@code updated_at} is when the payer was
 * charged; a plain-wallet flow was charged when it entered PAYED (its history row). A refund
 * order's SUCCESS is final, so its {@code updated_at} is when the money went back. The flow's own
 * compensation refund ({@code r_} + trade) is reported with its charge's view.
 */
public final class JdbcLocalFacts implements LocalSide {
  private static final int IN_LIST = 500;

  private static final String BY_TRADE =
      "SELECT "
          + LocalFactRows.WITHOUT_REFUND
          + "\n  FROM pay_flow f\n"
          + LocalFactRows.ATTEMPT_OF_FLOW
          + "\n WHERE f.trade_order_no = ?";

  private static final String BY_FLOW_REFUND = BY_TRADE + " AND f.refund_order_no = ?";

  private static final String BY_REFUND_ORDER =
      "SELECT "
          + LocalFactRows.WITH_REFUND_ORDER
          + "\n  FROM refund_order r\n  JOIN pay_flow f ON f.id = r.flow_id\n"
          + LocalFactRows.ATTEMPT_OF_FLOW
          + "\n WHERE r.refund_no = ?";

  private static final String BY_COMPENSATION =
      "SELECT "
          + LocalFactRows.WITH_COMPENSATION
          + "\n  FROM attempt_compensation k"
          + "\n  JOIN payment_attempt a ON a.id = k.attempt_id"
          + "\n  JOIN channel_account ca ON ca.id = a.channel_account_id"
          + "\n  JOIN pay_flow f ON f.trade_order_no = a.trade_order_no"
          + "\n WHERE k.refund_no = ?";

  private static final String BY_ATTEMPT_KEY =
      "SELECT "
          + LocalFactRows.WITHOUT_REFUND
          + "\n  FROM payment_attempt a"
          + "\n  JOIN channel_account ca ON ca.id = a.channel_account_id"
          + "\n  JOIN pay_flow f ON f.trade_order_no = a.trade_order_no"
          + "\n WHERE a.provider_idempotency_key = ?"
          + "\n ORDER BY a.id LIMIT 1";

  /** {@link #BY_TRADE} for many trade orders at once. */
  private static final String BY_TRADES =
      "SELECT "
          + LocalFactRows.WITHOUT_REFUND
          + "\n  FROM pay_flow f\n"
          + LocalFactRows.ATTEMPT_OF_FLOW
          + "\n WHERE f.trade_order_no = ANY (?)";

  /** {@link #BY_ATTEMPT_KEY} for many keys at once: the first attempt of each key. */
  private static final String BY_ATTEMPT_KEYS =
      "SELECT DISTINCT ON (a.provider_idempotency_key) "
          + LocalFactRows.WITHOUT_REFUND
          + "\n  FROM payment_attempt a"
          + "\n  JOIN channel_account ca ON ca.id = a.channel_account_id"
          + "\n  JOIN pay_flow f ON f.trade_order_no = a.trade_order_no"
          + "\n WHERE a.provider_idempotency_key = ANY (?)"
          + "\n ORDER BY a.provider_idempotency_key, a.id";

  /**
   * Every refund of one payment, in one statement keyed by its trade order no: its refund orders
   * ({@code uk_refund_flow_seq} leads with the flow), the flow's own refund once it is refunding or
   * refunded, and the compensations of its attempts ({@code uk_attempt_seq} leads with the trade).
   */
  private static final String REFUNDS_OF_PAYMENT =
      "SELECT "
          + LocalFactRows.WITH_REFUND_ORDER
          + "\n  FROM pay_flow f\n  JOIN refund_order r ON r.flow_id = f.id\n"
          + LocalFactRows.ATTEMPT_OF_FLOW
          + "\n WHERE f.trade_order_no = ?"
          + "\nUNION ALL\nSELECT "
          + LocalFactRows.WITHOUT_REFUND
          + "\n  FROM pay_flow f\n"
          + LocalFactRows.ATTEMPT_OF_FLOW
          + "\n WHERE f.trade_order_no = ? AND f.status IN ('REFUNDING', 'REFUNDED')"
          + "\nUNION ALL\nSELECT "
          + LocalFactRows.WITH_COMPENSATION
          + "\n  FROM payment_attempt a"
          + "\n  JOIN attempt_compensation k ON k.attempt_id = a.id"
          + "\n  JOIN channel_account ca ON ca.id = a.channel_account_id"
          + "\n  JOIN pay_flow f ON f.trade_order_no = a.trade_order_no"
          + "\n WHERE a.trade_order_no = ?"
          + "\n ORDER BY r_id";

  /** The number a flow refund was sent to the PSP under (a re-sent refund has a suffix). */
  private static final String PROVIDER_REFUND =
      "SELECT refund_order_no FROM channel_refund WHERE provider_refund_no = ?";

  /**
   * One account's movements of a window, from three indexed ranges: attempts charged at the
   * account, plain-wallet flows that entered PAYED (only for the wallet's account), and refund
   * orders that succeeded (routed to the account's attempt, or of a plain-wallet flow).
   */
  private static final String MOVEMENTS = movements("TRUE", "FALSE");

  /**
   * {@link #MOVEMENTS} with a condition on the views without a refund order (of the flow {@code f})
   * and a column {@code charge_shown} on every view. Parameters, in order: account, from, to,
   * wallet, from, to, from, to, account, wallet.
   */
  static String movements(String chargeViewKept, String chargeShown) {
    return movements(chargeViewKept, chargeViewKept, chargeShown);
  }

  /**
   * {@link #movements(String, String)} with one condition on the attempts' charge views ({@code a}
   * and {@code f}) and another on the plain-wallet charge views ({@code f}).
   */
  static String movements(String attemptViewKept, String walletViewKept, String chargeShown) {
    return "SELECT "
        + LocalFactRows.WITHOUT_REFUND
        + ", "
        + chargeShown
        + " AS charge_shown"
        + """

          FROM payment_attempt a
          JOIN channel_account ca ON ca.id = a.channel_account_id
          JOIN pay_flow f ON f.trade_order_no = a.trade_order_no
         WHERE a.status = 'SUCCEEDED'
           AND ca.account_ref = ?
           AND a.updated_at >= ? AND a.updated_at < ?
           AND\s"""
        + attemptViewKept
        + """

        UNION ALL
        SELECT\s"""
        + LocalFactRows.WITHOUT_REFUND
        + ", "
        + chargeShown
        + " AS charge_shown"
        + """

          FROM pay_flow_history h
          JOIN pay_flow f ON f.id = h.flow_id
          LEFT JOIN payment_attempt a ON FALSE
          LEFT JOIN channel_account ca ON FALSE
         WHERE ? AND h.to_status = 'PAYED'
           AND h.created_at >= ? AND h.created_at < ?
           AND NOT EXISTS (SELECT 1 FROM payment_attempt pa
                            WHERE pa.trade_order_no = f.trade_order_no)
           AND\s"""
        + walletViewKept
        + """

        UNION ALL
        SELECT\s"""
        + LocalFactRows.WITH_REFUND_ORDER
        + ", "
        + chargeShown
        + " AS charge_shown"
        + "\n  FROM refund_order r\n  JOIN pay_flow f ON f.id = r.flow_id\n"
        + LocalFactRows.ATTEMPT_OF_FLOW
        + """

         WHERE r.status = 'SUCCESS' AND r.updated_at >= ? AND r.updated_at < ?
           AND (ca.account_ref = ? OR (a.id IS NULL AND ?))
        """;
  }

  /** Binds the parameters of {@link #movements}. */
  static void bindMovements(
      PreparedStatement ps, String account, boolean wallet, Instant from, Instant to)
      throws SQLException {
    bindMovements(ps, 1, account, wallet, from, to);
  }

  /** Binds the parameters of {@link #movements}, the first at index {@code first}. */
  static void bindMovements(
      PreparedStatement ps, int first, String account, boolean wallet, Instant from, Instant to)
      throws SQLException {
    int i = first;
    ps.setString(i++, account);
    ps.setObject(i++, ts(from));
    ps.setObject(i++, ts(to));
    ps.setBoolean(i++, wallet);
    ps.setObject(i++, ts(from));
    ps.setObject(i++, ts(to));
    ps.setObject(i++, ts(from));
    ps.setObject(i++, ts(to));
    ps.setString(i++, account);
    ps.setBoolean(i, wallet);
  }

  private final DataSource dataSource;
  private final Sql sql;
  private final String walletAccount;
  private final boolean mysql;

  /**
   * @param walletAccount the account of flows paid through the plain wallet (no channel attempt)
   */
  public JdbcLocalFacts(DataSource dataSource, String walletAccount) {
    this(dataSource, new PostgresDialect(), walletAccount);
  }

  /**
   * @param walletAccount the account of flows paid through the plain wallet (no channel attempt)
   */
  public JdbcLocalFacts(DataSource dataSource, SqlDialect dialect, String walletAccount) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
    this.walletAccount = Objects.requireNonNull(walletAccount, "walletAccount");
    this.mysql = dialect instanceof MysqlDialect;
  }

  /** {@code postgres} as this database runs it ({@link MysqlLocalFactStatements}). */
  private String sql(String postgres) {
    return mysql ? MysqlLocalFactStatements.of(postgres) : postgres;
  }

  @Override
  public Optional<LocalFact> byTradeOrderNo(String tradeOrderNo) {
    return one(sql(BY_TRADE), ps -> ps.setString(1, tradeOrderNo));
  }

  @Override
  public Optional<LocalFact> byRefundOrderNo(String refundOrderNo) {
    String number = flowRefundNumber(refundOrderNo);
    Optional<LocalFact> order = one(sql(BY_REFUND_ORDER), ps -> ps.setString(1, number));
    if (order.isPresent()) {
      return order;
    }
    if (number.startsWith("r_")) {
      Optional<LocalFact> flow =
          one(
              sql(BY_FLOW_REFUND),
              ps -> {
                ps.setString(1, number.substring(2));
                ps.setString(2, number);
              });
      if (flow.isPresent()) {
        return flow;
      }
    }
    return one(sql(BY_COMPENSATION), ps -> ps.setString(1, refundOrderNo));
  }

  @Override
  public Optional<LocalFact> byAttemptKey(String attemptKey) {
    return one(sql(BY_ATTEMPT_KEY), ps -> ps.setString(1, attemptKey));
  }

  /** One indexed query for the whole batch. */
  @Override
  public Map<String, LocalFact> byTradeOrderNos(Collection<String> tradeOrderNos) {
    Map<String, LocalFact> found = new HashMap<>();
    for (LocalFact fact : many(BY_TRADES, tradeOrderNos)) {
      found.put(fact.tradeOrderNo(), fact);
    }
    return found;
  }

  /** One indexed query for the whole batch. */
  @Override
  public Map<String, LocalFact> byAttemptKeys(Collection<String> attemptKeys) {
    Map<String, LocalFact> found = new HashMap<>();
    for (LocalFact fact : many(BY_ATTEMPT_KEYS, attemptKeys)) {
      // The first attempt of each key (rows ordered by key, then id).
      found.putIfAbsent(fact.attemptKey(), fact);
    }
    return found;
  }

  private List<LocalFact> many(String statement, Collection<String> numbers) {
    String[] values = numbers.toArray(String[]::new);
    if (mysql) {
      return manyAsInLists(statement, values);
    }
    return sql.query(
        statement,
        ps -> ps.setArray(1, ps.getConnection().createArrayOf("varchar", values)),
        rs -> LocalFactRows.map(rs, walletAccount));
  }

  /** {@link #many} with IN lists of at most {@value #IN_LIST} values. */
  private List<LocalFact> manyAsInLists(String statement, String[] values) {
    List<LocalFact> found = new ArrayList<>();
    for (int from = 0; from < values.length; from += IN_LIST) {
      String[] page = Arrays.copyOfRange(values, from, Math.min(values.length, from + IN_LIST));
      found.addAll(
          sql.query(
              MysqlLocalFactStatements.inList(sql(statement), page.length),
              ps -> {
                for (int i = 0; i < page.length; i++) {
                  ps.setString(i + 1, page[i]);
                }
              },
              rs -> LocalFactRows.map(rs, walletAccount)));
    }
    return found;
  }

  @Override
  public List<LocalFact> refundsOfPayment(String tradeOrderNo) {
    return sql.query(
        sql(REFUNDS_OF_PAYMENT),
        ps -> {
          ps.setString(1, tradeOrderNo);
          ps.setString(2, tradeOrderNo);
          ps.setString(3, tradeOrderNo);
        },
        rs -> LocalFactRows.map(rs, walletAccount));
  }

  @Override
  public Stream<LocalFact> movementsIn(String account, Instant from, Instant to) {
    boolean wallet = walletAccount.equals(account);
    return CursorStream.open(
        dataSource,
        sql(MOVEMENTS),
        ps -> bindMovements(ps, account, wallet, from, to),
        rs -> LocalFactRows.map(rs, walletAccount));
  }

  /** The flow's refund number a PSP's refund number stands for (itself when not re-sent). */
  private String flowRefundNumber(String refundOrderNo) {
    return sql
        .query(PROVIDER_REFUND, ps -> ps.setString(1, refundOrderNo), rs -> rs.getString(1))
        .stream()
        .findFirst()
        .orElse(refundOrderNo);
  }

  private Optional<LocalFact> one(String statement, Sql.Binder binder) {
    return sql.query(statement, binder, rs -> LocalFactRows.map(rs, walletAccount)).stream()
        .findFirst();
  }
}
