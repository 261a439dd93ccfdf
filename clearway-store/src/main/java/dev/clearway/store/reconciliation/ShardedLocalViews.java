package dev.clearway.store.reconciliation;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.LocalAttempt;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.LocalRefund;
import dev.clearway.store.reconciliation.ShardedLocalRows.AttemptPart;
import dev.clearway.store.reconciliation.ShardedLocalRows.FlowPart;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Local views built from their parts read by key ({@link ShardedLocalRows}), by the rules of {@link
 * LocalFactRows}: the attempt that speaks for a flow is its charged one, else its latest; the
 * account is the attempt's (the wallet's without one); the compensation state is the greater of the
 * attempt's compensation and the flow's LATE_CHARGE refund orders. A batch of views costs one read
 * of each part for all of them.
 */
final class ShardedLocalViews {

  /**
   * What one view is built from.
   *
   * @param attempt the attempt the view names; null with {@code flowsAttempt} for the attempt that
   *     speaks for the flow, null without it for none
   * @param refund the refund the view shows, or null
   */
  record Seed(FlowPart flow, AttemptPart attempt, boolean flowsAttempt, LocalRefund refund) {
    static Seed ofFlow(FlowPart flow, LocalRefund refund) {
      return new Seed(flow, null, true, refund);
    }

    static Seed ofAttempt(FlowPart flow, AttemptPart attempt, LocalRefund refund) {
      return new Seed(flow, attempt, false, refund);
    }
  }

  /** Charged first, then the latest by sequence. */
  private static final Comparator<AttemptPart> SPEAKS_FIRST =
      Comparator.comparing((AttemptPart a) -> a.status() != AttemptStatus.SUCCEEDED)
          .thenComparing(Comparator.comparingInt(AttemptPart::seq).reversed());

  private final ShardedLocalRows rows;
  private final String walletAccount;

  ShardedLocalViews(ShardedLocalRows rows, String walletAccount) {
    this.rows = rows;
    this.walletAccount = Objects.requireNonNull(walletAccount, "walletAccount");
  }

  /** The views of {@code seeds}, in their order. */
  List<LocalFact> views(List<Seed> seeds) {
    if (seeds.isEmpty()) {
      return List.of();
    }
    Set<String> asked =
        seeds.stream()
            .filter(Seed::flowsAttempt)
            .map(s -> s.flow().tradeOrderNo())
            .collect(Collectors.toSet());
    Map<String, List<AttemptPart>> ofTrade =
        asked.isEmpty() ? Map.of() : rows.attemptsOfTrades(asked);
    List<AttemptPart> attempts = new ArrayList<>(seeds.size());
    for (Seed s : seeds) {
      attempts.add(s.flowsAttempt() ? speaking(ofTrade.get(s.flow().tradeOrderNo())) : s.attempt());
    }
    List<AttemptPart> present = attempts.stream().filter(Objects::nonNull).toList();
    Map<Long, String> accounts =
        rows.accountRefs(present.stream().map(AttemptPart::accountId).toList());
    Map<Long, String> compensations =
        rows.compensationStatus(present.stream().map(AttemptPart::id).toList());
    Map<Long, List<String>> lateCharges =
        rows.lateChargeStatuses(seeds.stream().map(s -> s.flow().id()).toList());
    List<LocalFact> views = new ArrayList<>(seeds.size());
    for (int i = 0; i < seeds.size(); i++) {
      Seed s = seeds.get(i);
      AttemptPart a = attempts.get(i);
      int level =
          Math.max(
              a == null ? 0 : compensationLevel(compensations.get(a.id())),
              lateChargeLevel(lateCharges.getOrDefault(s.flow().id(), List.of())));
      views.add(view(s, a, a == null ? walletAccount : accounts.get(a.accountId()), level));
    }
    return views;
  }

  /** The attempt that speaks for a flow among all of its attempts; null when it has none. */
  static AttemptPart speaking(List<AttemptPart> attempts) {
    return attempts == null ? null : attempts.stream().min(SPEAKS_FIRST).orElse(null);
  }

  private static int compensationLevel(String status) {
    return status == null ? 0 : status.equals("REFUNDED") ? 2 : 1;
  }

  private static int lateChargeLevel(List<String> statuses) {
    int level = 0;
    for (String status : statuses) {
      int l =
          switch (status) {
            case "SUCCESS" -> 2;
            case "FAIL", "CLOSED" -> 0;
            default -> 1;
          };
      level = Math.max(level, l);
    }
    return level;
  }

  private static LocalFact view(Seed s, AttemptPart a, String account, int level) {
    FlowPart f = s.flow();
    return new LocalFact(
        f.id(),
        f.goal(),
        f.tradeOrderNo(),
        f.refundOrderNo(),
        f.status(),
        f.version(),
        a == null ? null : new LocalAttempt(a.id(), a.key(), a.status(), a.version()),
        s.refund(),
        f.amount(),
        f.currency(),
        account,
        f.createdAt(),
        f.updatedAt(),
        switch (level) {
          case 2 -> CompensationState.SETTLED;
          case 1 -> CompensationState.OPEN;
          default -> CompensationState.NONE;
        });
  }
}
