package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.store.Sql;
import dev.clearway.store.reconciliation.ShardedLocalRows.AttemptPart;
import dev.clearway.store.reconciliation.ShardedLocalRows.FlowPart;
import dev.clearway.store.reconciliation.ShardedLocalRows.RefundPart;
import dev.clearway.store.reconciliation.ShardedLocalViews.Seed;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * One account's movements of a window on a sharded layout, the three ranges of {@link
 * JdbcLocalFacts#movements} read as pages over every shard: each page is one statement on one table
 * (no join: the driver sends it to every shard through the same index as on one database, and
 * merges the shards' rows by the page's order), then the other parts of its views by key ({@link
 * ShardedLocalViews}). A page continues after the last row of the one before (time, then id), so
 * memory holds one page whatever the day's size, and each shard reads at most a page's rows per
 * page: the unsharded cost per shard.
 */
final class ShardedMovements {
  static final int PAGE = ShardedLocalRows.IN_LIST;

  /** Attempts charged at the account (its channel account ids) in the window. */
  private static final String ATTEMPTS =
      "SELECT "
          + ShardedLocalRows.ATTEMPT_COLUMNS
          + " FROM payment_attempt WHERE status = 'SUCCEEDED' AND updated_at >= ? AND updated_at < ?"
          + " AND (updated_at > ? OR (updated_at = ? AND id > ?))"
          + " AND channel_account_id IN ";

  /** Flows that entered PAYED in the window (the plain wallet's charges). */
  private static final String PAYED =
      "SELECT id, flow_id, created_at FROM pay_flow_history"
          + " WHERE to_status = 'PAYED' AND created_at >= ? AND created_at < ?"
          + " AND (created_at > ? OR (created_at = ? AND id > ?))"
          + " ORDER BY created_at, id LIMIT ?";

  /** Refund orders that succeeded in the window. */
  private static final String REFUNDED =
      "SELECT id, flow_id, refund_no, status, amount, version, updated_at FROM refund_order"
          + " WHERE status = 'SUCCESS' AND updated_at >= ? AND updated_at < ?"
          + " AND (updated_at > ? OR (updated_at = ? AND id > ?))"
          + " ORDER BY updated_at, id LIMIT ?";

  private record Entered(long id, long flowId, Instant at) {}

  private final ShardedLocalRows rows;
  private final ShardedLocalViews views;
  private final String walletAccount;
  private final Sql sql;

  ShardedMovements(ShardedLocalRows rows, ShardedLocalViews views, String walletAccount) {
    this.rows = rows;
    this.views = views;
    this.walletAccount = walletAccount;
    this.sql = rows.sql();
  }

  Stream<LocalFact> in(String account, Instant from, Instant to) {
    boolean wallet = walletAccount.equals(account);
    Stream<LocalFact> charged = charged(account, from, to);
    if (wallet) {
      charged = Stream.concat(charged, walletCharges(from, to));
    }
    return Stream.concat(charged, refunds(account, wallet, from, to));
  }

  private Stream<LocalFact> charged(String account, Instant from, Instant to) {
    List<Long> accountIds = rows.accountIds(account);
    if (accountIds.isEmpty()) {
      return Stream.empty();
    }
    String select =
        ATTEMPTS
            + "("
            + MysqlReconStatements.placeholders(accountIds.size())
            + ") ORDER BY updated_at, id LIMIT ?";
    return pages(
        select,
        from,
        to,
        ShardedLocalRows::attempt,
        AttemptPart::updatedAt,
        AttemptPart::id,
        accountIds,
        page -> {
          Map<String, FlowPart> flows =
              rows.flowsByTrade(page.stream().map(AttemptPart::tradeOrderNo).toList());
          List<Seed> seeds = new ArrayList<>();
          for (AttemptPart a : page) {
            FlowPart f = flows.get(a.tradeOrderNo());
            if (f != null) {
              seeds.add(Seed.ofAttempt(f, a, null));
            }
          }
          return views.views(seeds);
        });
  }

  /** Flows that entered PAYED without any attempt: charged through the plain wallet. */
  private Stream<LocalFact> walletCharges(Instant from, Instant to) {
    return pages(
        PAYED,
        from,
        to,
        rs ->
            new Entered(
                rs.getLong("id"), rs.getLong("flow_id"), LocalFactRows.instant(rs, "created_at")),
        Entered::at,
        Entered::id,
        List.of(),
        page -> {
          Map<Long, FlowPart> flows = rows.flowsById(page.stream().map(Entered::flowId).toList());
          Map<String, List<AttemptPart>> attempts =
              rows.attemptsOfTrades(flows.values().stream().map(FlowPart::tradeOrderNo).toList());
          List<Seed> seeds = new ArrayList<>();
          for (Entered e : page) {
            FlowPart f = flows.get(e.flowId());
            if (f != null && !attempts.containsKey(f.tradeOrderNo())) {
              seeds.add(Seed.ofAttempt(f, null, null));
            }
          }
          return views.views(seeds);
        });
  }

  /** Succeeded refund orders whose flow's attempt went to the account (none: the wallet's). */
  private Stream<LocalFact> refunds(String account, boolean wallet, Instant from, Instant to) {
    return pages(
        REFUNDED,
        from,
        to,
        ShardedLocalRows::refundOrder,
        r -> r.refund().updatedAt(),
        r -> r.refund().id(),
        List.of(),
        page -> {
          Map<Long, FlowPart> flows =
              rows.flowsById(page.stream().map(RefundPart::ownerId).toList());
          List<Seed> seeds = new ArrayList<>();
          for (RefundPart r : page) {
            FlowPart f = flows.get(r.ownerId());
            if (f != null) {
              seeds.add(Seed.ofFlow(f, r.refund()));
            }
          }
          return views.views(seeds).stream()
              .filter(v -> v.attempt() == null ? wallet : account.equals(v.channelAccount()))
              .toList();
        });
  }

  /**
   * The views of {@code select}'s rows, a page at a time. Parameters: from, to, the last row's time
   * twice and id, then {@code tail} and the page size.
   */
  private <R> Stream<LocalFact> pages(
      String select,
      Instant from,
      Instant to,
      Sql.RowMapper<R> mapper,
      Function<R, Instant> at,
      ToLongFunction<R> id,
      List<?> tail,
      Function<List<R>, List<LocalFact>> toViews) {
    Iterator<List<LocalFact>> pages =
        new Iterator<>() {
          private Instant lastAt = from;
          private long lastId = Long.MIN_VALUE;
          private boolean done;

          @Override
          public boolean hasNext() {
            return !done;
          }

          @Override
          public List<LocalFact> next() {
            if (done) {
              throw new NoSuchElementException();
            }
            List<R> page =
                sql.query(select, ps -> bind(ps, from, to, lastAt, lastId, tail), mapper);
            done = page.size() < PAGE;
            if (!page.isEmpty()) {
              R last = page.get(page.size() - 1);
              lastAt = at.apply(last);
              lastId = id.applyAsLong(last);
            }
            return toViews.apply(page);
          }
        };
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(pages, Spliterator.ORDERED), false)
        .flatMap(List::stream);
  }

  private static void bind(
      PreparedStatement ps, Instant from, Instant to, Instant lastAt, long lastId, List<?> tail)
      throws SQLException {
    int i = 1;
    ps.setObject(i++, ts(from));
    ps.setObject(i++, ts(to));
    ps.setObject(i++, ts(lastAt));
    ps.setObject(i++, ts(lastAt));
    ps.setLong(i++, lastId);
    for (Object value : tail) {
      ps.setObject(i++, value);
    }
    ps.setInt(i, PAGE);
  }
}
