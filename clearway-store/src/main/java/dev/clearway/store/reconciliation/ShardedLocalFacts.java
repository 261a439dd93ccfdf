package dev.clearway.store.reconciliation;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.store.reconciliation.ShardedLocalRows.AttemptPart;
import dev.clearway.store.reconciliation.ShardedLocalRows.FlowPart;
import dev.clearway.store.reconciliation.ShardedLocalRows.RefundPart;
import dev.clearway.store.reconciliation.ShardedLocalViews.Seed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The local side of reconciliation through a sharding driver (ShardingSphere-JDBC): the same views
 * as {@link JdbcLocalFacts}, whose statements join the payment tables with each other and with the
 * channel accounts of the first database, which the driver cannot route. Here every statement reads
 * one table: first the rows the line names, by the key it carries (a trade or refund number routes
 * to its payment's shard; an attempt key, a compensation's or a PSP's refund number is no routing
 * column and is looked up on every shard by its index), then the other parts of the view by the
 * keys those rows hold ({@link ShardedLocalViews}). The account-day is read page by page over every
 * shard ({@link ShardedMovements}).
 */
final class ShardedLocalFacts implements LocalSide {
  private final ShardedLocalRows rows;
  private final ShardedLocalViews views;
  private final ShardedMovements movements;

  /**
   * @param walletAccount the account of flows paid through the plain wallet (no channel attempt)
   */
  ShardedLocalFacts(DataSource dataSource, String walletAccount) {
    this.rows = new ShardedLocalRows(dataSource);
    this.views = new ShardedLocalViews(rows, walletAccount);
    this.movements = new ShardedMovements(rows, views, walletAccount);
  }

  @Override
  public Optional<LocalFact> byTradeOrderNo(String tradeOrderNo) {
    return Optional.ofNullable(byTradeOrderNos(List.of(tradeOrderNo)).get(tradeOrderNo));
  }

  @Override
  public Optional<LocalFact> byRefundOrderNo(String refundOrderNo) {
    String number = rows.providerRefund(refundOrderNo).stream().findFirst().orElse(refundOrderNo);
    for (RefundPart r : rows.refundOrderByNo(number)) {
      FlowPart f = rows.flowsById(List.of(r.ownerId())).get(r.ownerId());
      if (f != null) {
        return one(Seed.ofFlow(f, r.refund()));
      }
    }
    if (number.startsWith("r_")) {
      String trade = number.substring(2);
      FlowPart f = rows.flowsByTrade(List.of(trade)).get(trade);
      if (f != null && number.equals(f.refundOrderNo())) {
        return one(Seed.ofFlow(f, null));
      }
    }
    for (RefundPart k : rows.compensationByRefundNo(refundOrderNo)) {
      AttemptPart a = rows.attemptsById(List.of(k.ownerId())).get(k.ownerId());
      FlowPart f =
          a == null ? null : rows.flowsByTrade(List.of(a.tradeOrderNo())).get(a.tradeOrderNo());
      if (f != null) {
        return one(Seed.ofAttempt(f, a, k.refund()));
      }
    }
    return Optional.empty();
  }

  @Override
  public Optional<LocalFact> byAttemptKey(String attemptKey) {
    return Optional.ofNullable(byAttemptKeys(List.of(attemptKey)).get(attemptKey));
  }

  /** One read of the flows by their numbers, then one of each part for all of them. */
  @Override
  public Map<String, LocalFact> byTradeOrderNos(Collection<String> tradeOrderNos) {
    List<Seed> seeds = new ArrayList<>();
    for (FlowPart f : rows.flowsByTrade(tradeOrderNos).values()) {
      seeds.add(Seed.ofFlow(f, null));
    }
    Map<String, LocalFact> found = new HashMap<>();
    for (LocalFact fact : views.views(seeds)) {
      found.put(fact.tradeOrderNo(), fact);
    }
    return found;
  }

  /** The first attempt of each key (on every shard), its flow, then each part for all of them. */
  @Override
  public Map<String, LocalFact> byAttemptKeys(Collection<String> attemptKeys) {
    Map<String, AttemptPart> attempts = rows.firstAttemptByKey(attemptKeys);
    Map<String, FlowPart> flows =
        rows.flowsByTrade(attempts.values().stream().map(AttemptPart::tradeOrderNo).toList());
    List<Seed> seeds = new ArrayList<>();
    for (AttemptPart a : attempts.values()) {
      FlowPart f = flows.get(a.tradeOrderNo());
      if (f != null) {
        seeds.add(Seed.ofAttempt(f, a, null));
      }
    }
    Map<String, LocalFact> found = new HashMap<>();
    for (LocalFact fact : views.views(seeds)) {
      found.put(fact.attemptKey(), fact);
    }
    return found;
  }

  /**
   * The flow's own refund (once refunding or refunded) first, then its attempts' compensations,
   * then its refund orders, in the order of their view ids as the MySQL family sorts them.
   */
  @Override
  public List<LocalFact> refundsOfPayment(String tradeOrderNo) {
    FlowPart f = rows.flowsByTrade(List.of(tradeOrderNo)).get(tradeOrderNo);
    if (f == null) {
      return List.of();
    }
    List<Seed> seeds = new ArrayList<>();
    if (f.status() == FlowStatus.REFUNDING || f.status() == FlowStatus.REFUNDED) {
      seeds.add(Seed.ofFlow(f, null));
    }
    List<RefundPart> compensations = rows.compensationsOfTrade(tradeOrderNo);
    Map<Long, AttemptPart> attempts =
        rows.attemptsById(compensations.stream().map(RefundPart::ownerId).toList());
    for (RefundPart k : compensations) {
      AttemptPart a = attempts.get(k.ownerId());
      if (a != null) {
        seeds.add(Seed.ofAttempt(f, a, k.refund()));
      }
    }
    for (RefundPart r : rows.refundOrdersOfFlow(f.id())) {
      seeds.add(Seed.ofFlow(f, r.refund()));
    }
    return views.views(seeds);
  }

  @Override
  public Stream<LocalFact> movementsIn(String account, Instant from, Instant to) {
    return movements.in(account, from, to);
  }

  private Optional<LocalFact> one(Seed seed) {
    return views.views(List.of(seed)).stream().findFirst();
  }
}
