package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Picks the local refund a refund line stands for when the line names the payment (the payment's
 * metadata, its trade order number) but not our refund number, as a PSP's own refund id does. The
 * candidates are the payment's refunds with the line's amount that no earlier line of the day
 * accounted for:
 *
 * <ul>
 *   <li>exactly one: a confirmed match;
 *   <li>several: a suggested match (a person confirms it, nothing is repaired on it); the one whose
 *       local state agrees with the line is preferred, so that an agreeing pair shows no
 *       difference;
 *   <li>none: no match (the line stays unknown).
 * </ul>
 */
public final class RefundCandidates {
  private RefundCandidates() {}

  /**
   * The local refund chosen for a line, and whether other candidates could have been it.
   *
   * @param ambiguous several candidates had the line's amount: only a suggestion
   */
  public record Choice(LocalFact local, boolean ambiguous) {}

  /**
   * @param refunds the views of every refund of the line's payment
   * @param seen whether a refund number was already accounted for by a line of the day
   */
  public static Optional<Choice> choose(
      StatementFact line, List<LocalFact> refunds, Predicate<String> seen) {
    List<LocalFact> candidates =
        refunds.stream()
            .filter(r -> r.refundOrderNo() != null && !seen.test(r.refundOrderNo()))
            .filter(r -> refundAmount(r) == line.amountMinor())
            .toList();
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    if (candidates.size() == 1) {
      return Optional.of(new Choice(candidates.get(0), false));
    }
    LocalFact preferred =
        candidates.stream()
            .filter(r -> r.locallyRefunded() == line.succeeded())
            .findFirst()
            .orElse(candidates.get(0));
    return Optional.of(new Choice(preferred, true));
  }

  /** The amount the local side holds for the refund: its refund order's, else the flow's. */
  public static long refundAmount(LocalFact local) {
    return local.refund() != null ? local.refund().amountMinor() : local.amountMinor();
  }
}
