package dev.clearway.store.reconciliation;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.reconciliation.domain.LocalRefund;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.store.FlowReads;
import dev.clearway.store.GoalKeyColumns;
import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * The parts of a local view read one table at a time, by key, for a sharding driver that routes a
 * statement on one sharded table by the ids and order numbers it names but cannot join the payment
 * tables with each other or with the single tables of the first database. Each read takes many keys
 * (IN lists of at most {@value #IN_LIST}), so a page of lines or movements costs a few statements,
 * each reaching the shards its keys name. A key that names no shard (a foreign line's number) is
 * never sent: no local row can have it.
 */
final class ShardedLocalRows {
  static final int IN_LIST = 500;

  /** The flow's columns a view needs, from the flow's two binding tables joined by id. */
  private static final String FLOWS =
      "SELECT id, merchant_id, user_id, scene, biz_key, trade_order_no, refund_order_no, status,"
          + " version, amount, currency, created_at, updated_at FROM "
          + FlowReads.SHARDED_ROWS;

  static final String ATTEMPT_COLUMNS =
      "id, trade_order_no, provider_idempotency_key, status, version, channel_account_id, seq,"
          + " updated_at";

  private static final String REFUND_COLUMNS =
      "id, flow_id, refund_no, status, amount, version, updated_at";

  private static final String COMPENSATION_COLUMNS =
      "attempt_id, refund_no, status, amount, version, updated_at";

  /** A flow's facts and state as a view needs them. */
  record FlowPart(
      long id,
      GoalKey goal,
      String tradeOrderNo,
      String refundOrderNo,
      FlowStatus status,
      long version,
      long amount,
      String currency,
      Instant createdAt,
      Instant updatedAt) {}

  /** An attempt as a view needs it. */
  record AttemptPart(
      long id,
      String tradeOrderNo,
      String key,
      AttemptStatus status,
      long version,
      long accountId,
      int seq,
      Instant updatedAt) {}

  /** A refund (an order, or a compensation shown as one) and the flow or attempt it belongs to. */
  record RefundPart(long ownerId, LocalRefund refund) {}

  private final Sql sql;
  private final Map<Long, String> accounts = new ConcurrentHashMap<>();

  ShardedLocalRows(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  Sql sql() {
    return sql;
  }

  /** Whether {@code number} names a shard: a trade or refund number derived from a flow id. */
  static boolean routable(String number) {
    return ShardedNumbers.carriesShard(number);
  }

  Map<String, FlowPart> flowsByTrade(Collection<String> tradeOrderNos) {
    Map<String, FlowPart> found = new HashMap<>();
    List<String> keys = tradeOrderNos.stream().filter(ShardedLocalRows::routable).toList();
    for (FlowPart f : in(FLOWS + " WHERE trade_order_no IN ", keys, ShardedLocalRows::flow)) {
      found.put(f.tradeOrderNo(), f);
    }
    return found;
  }

  Map<Long, FlowPart> flowsById(Collection<Long> ids) {
    Map<Long, FlowPart> found = new HashMap<>();
    for (FlowPart f : in(FLOWS + " WHERE id IN ", ids, ShardedLocalRows::flow)) {
      found.put(f.id(), f);
    }
    return found;
  }

  /** Every attempt of each trade order, by trade order no. */
  Map<String, List<AttemptPart>> attemptsOfTrades(Collection<String> tradeOrderNos) {
    Map<String, List<AttemptPart>> found = new HashMap<>();
    List<String> keys = tradeOrderNos.stream().filter(ShardedLocalRows::routable).toList();
    String select = "SELECT " + ATTEMPT_COLUMNS + " FROM payment_attempt WHERE trade_order_no IN ";
    for (AttemptPart a : in(select, keys, ShardedLocalRows::attempt)) {
      found.computeIfAbsent(a.tradeOrderNo(), t -> new ArrayList<>()).add(a);
    }
    return found;
  }

  Map<Long, AttemptPart> attemptsById(Collection<Long> ids) {
    Map<Long, AttemptPart> found = new HashMap<>();
    String select = "SELECT " + ATTEMPT_COLUMNS + " FROM payment_attempt WHERE id IN ";
    for (AttemptPart a : in(select, ids, ShardedLocalRows::attempt)) {
      found.put(a.id(), a);
    }
    return found;
  }

  /**
   * The first attempt (lowest id) of each provider key. The key is no routing column: the read goes
   * to every shard, through {@code idx_attempt_provider_key} on each.
   */
  Map<String, AttemptPart> firstAttemptByKey(Collection<String> keys) {
    Map<String, AttemptPart> found = new LinkedHashMap<>();
    String select =
        "SELECT " + ATTEMPT_COLUMNS + " FROM payment_attempt WHERE provider_idempotency_key IN ";
    for (AttemptPart a : in(select, keys, ShardedLocalRows::attempt)) {
      found.merge(a.key(), a, (x, y) -> x.id() <= y.id() ? x : y);
    }
    return found;
  }

  /** The account reference of each channel account (a single table of the first database). */
  Map<Long, String> accountRefs(Collection<Long> ids) {
    List<Long> missing = ids.stream().distinct().filter(id -> !accounts.containsKey(id)).toList();
    String select = "SELECT id, account_ref FROM channel_account WHERE id IN ";
    for (Map.Entry<Long, String> e :
        in(select, missing, rs -> Map.entry(rs.getLong(1), rs.getString(2)))) {
      accounts.put(e.getKey(), e.getValue());
    }
    Map<Long, String> found = new HashMap<>();
    for (Long id : ids) {
      String ref = accounts.get(id);
      if (ref != null) {
        found.put(id, ref);
      }
    }
    return found;
  }

  /** The ids of the channel accounts of {@code accountRef}. */
  List<Long> accountIds(String accountRef) {
    return sql.query(
        "SELECT id FROM channel_account WHERE account_ref = ?",
        ps -> ps.setString(1, accountRef),
        rs -> rs.getLong(1));
  }

  /** The compensation status of each attempt that has one, by attempt id. */
  Map<Long, String> compensationStatus(Collection<Long> attemptIds) {
    Map<Long, String> found = new HashMap<>();
    String select = "SELECT attempt_id, status FROM attempt_compensation WHERE attempt_id IN ";
    for (Map.Entry<Long, String> e :
        in(select, attemptIds, rs -> Map.entry(rs.getLong(1), rs.getString(2)))) {
      found.put(e.getKey(), e.getValue());
    }
    return found;
  }

  /** The statuses of each flow's LATE_CHARGE refund orders, by flow id. */
  Map<Long, List<String>> lateChargeStatuses(Collection<Long> flowIds) {
    Map<Long, List<String>> found = new HashMap<>();
    String select =
        "SELECT flow_id, status FROM refund_order WHERE kind = 'LATE_CHARGE' AND flow_id IN ";
    for (Map.Entry<Long, String> e :
        in(select, flowIds, rs -> Map.entry(rs.getLong(1), rs.getString(2)))) {
      found.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
    }
    return found;
  }

  /** The refund order of that number, its owner the flow. */
  List<RefundPart> refundOrderByNo(String refundNo) {
    if (!routable(refundNo)) {
      return List.of();
    }
    return sql.query(
        "SELECT " + REFUND_COLUMNS + " FROM refund_order WHERE refund_no = ?",
        ps -> ps.setString(1, refundNo),
        ShardedLocalRows::refundOrder);
  }

  /** The refund orders of a flow, by id. */
  List<RefundPart> refundOrdersOfFlow(long flowId) {
    return sql.query(
        "SELECT " + REFUND_COLUMNS + " FROM refund_order WHERE flow_id = ? ORDER BY id",
        ps -> ps.setLong(1, flowId),
        ShardedLocalRows::refundOrder);
  }

  /**
   * The compensation of that refund number, its owner the attempt. The number is no routing column:
   * the read goes to every shard, through {@code uk_compensation_refund_no} on each.
   */
  List<RefundPart> compensationByRefundNo(String refundNo) {
    return sql.query(
        "SELECT " + COMPENSATION_COLUMNS + " FROM attempt_compensation WHERE refund_no = ?",
        ps -> ps.setString(1, refundNo),
        ShardedLocalRows::compensation);
  }

  /** The compensations of the attempts of a trade order, their owners the attempts. */
  List<RefundPart> compensationsOfTrade(String tradeOrderNo) {
    if (!routable(tradeOrderNo)) {
      return List.of();
    }
    return sql.query(
        "SELECT "
            + COMPENSATION_COLUMNS
            + " FROM attempt_compensation WHERE trade_order_no = ? ORDER BY attempt_id DESC",
        ps -> ps.setString(1, tradeOrderNo),
        ShardedLocalRows::compensation);
  }

  /**
   * The flow refund number a PSP's refund number stands for. The provider number is no routing
   * column: the read goes to every shard, through {@code uk_channel_refund_provider_no} on each.
   */
  List<String> providerRefund(String providerRefundNo) {
    return sql.query(
        "SELECT refund_order_no FROM channel_refund WHERE provider_refund_no = ?",
        ps -> ps.setString(1, providerRefundNo),
        rs -> rs.getString(1));
  }

  /** {@code select} completed by IN lists of at most {@value #IN_LIST} keys, the rows of all. */
  <K, T> List<T> in(String select, Collection<K> keys, Sql.RowMapper<T> mapper) {
    List<K> all = List.copyOf(keys.stream().distinct().toList());
    List<T> rows = new ArrayList<>();
    for (int from = 0; from < all.size(); from += IN_LIST) {
      List<K> page = all.subList(from, Math.min(all.size(), from + IN_LIST));
      rows.addAll(
          sql.query(
              select + "(" + MysqlReconStatements.placeholders(page.size()) + ")",
              ps -> {
                for (int i = 0; i < page.size(); i++) {
                  ps.setObject(i + 1, page.get(i));
                }
              },
              mapper));
    }
    return rows;
  }

  static FlowPart flow(ResultSet rs) throws SQLException {
    return new FlowPart(
        rs.getLong("id"),
        GoalKeyColumns.read(rs),
        rs.getString("trade_order_no"),
        rs.getString("refund_order_no"),
        FlowStatus.valueOf(rs.getString("status")),
        rs.getLong("version"),
        rs.getLong("amount"),
        rs.getString("currency").strip(),
        LocalFactRows.instant(rs, "created_at"),
        LocalFactRows.instant(rs, "updated_at"));
  }

  static AttemptPart attempt(ResultSet rs) throws SQLException {
    return new AttemptPart(
        rs.getLong("id"),
        rs.getString("trade_order_no"),
        rs.getString("provider_idempotency_key"),
        AttemptStatus.valueOf(rs.getString("status")),
        rs.getLong("version"),
        rs.getLong("channel_account_id"),
        rs.getInt("seq"),
        LocalFactRows.instant(rs, "updated_at"));
  }

  static RefundPart refundOrder(ResultSet rs) throws SQLException {
    return new RefundPart(
        rs.getLong("flow_id"),
        new LocalRefund(
            rs.getLong("id"),
            rs.getString("refund_no"),
            RefundStatus.valueOf(rs.getString("status")),
            rs.getLong("amount"),
            rs.getLong("version"),
            LocalFactRows.instant(rs, "updated_at")));
  }

  /** A compensation as {@link LocalFactRows#WITH_COMPENSATION} shows it: the attempt id negated. */
  private static RefundPart compensation(ResultSet rs) throws SQLException {
    long attemptId = rs.getLong("attempt_id");
    RefundStatus status =
        switch (rs.getString("status")) {
          case "REFUNDED" -> RefundStatus.SUCCESS;
          case "PENDING" -> RefundStatus.PROCESSING;
          default -> RefundStatus.ABNORMAL;
        };
    return new RefundPart(
        attemptId,
        new LocalRefund(
            -attemptId,
            rs.getString("refund_no"),
            status,
            rs.getLong("amount"),
            rs.getLong("version"),
            LocalFactRows.instant(rs, "updated_at")));
  }
}
