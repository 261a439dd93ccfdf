package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.Difference;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Optional;

/**
 * The statement day as the PSP counts it (in the account's zone: WeChat Pay's bill day is Beijing
 * time), and the date window across which a movement near midnight may sit in the neighbouring
 * day's file. The local side is read over the widened window; a local movement the day's file did
 * not show is a difference of this day only when it took place within the day and no file in force
 * shows it, and it is not actionable before the neighbouring day's file could have shown it.
 */
public record DayBoundary(Instant from, Instant to, Duration dateWindow) {
  public DayBoundary {
    if (!from.isBefore(to) || dateWindow.isNegative()) {
      throw new IllegalArgumentException("empty day or negative date window");
    }
  }

  public static DayBoundary of(LocalDate day, ZoneId zone, Duration dateWindow) {
    return new DayBoundary(
        day.atStartOfDay(zone).toInstant(),
        day.plusDays(1).atStartOfDay(zone).toInstant(),
        dateWindow);
  }

  public Instant widenedFrom() {
    return from.minus(dateWindow);
  }

  public Instant widenedTo() {
    return to.plus(dateWindow);
  }

  public boolean inDay(Instant at) {
    return !at.isBefore(from) && at.isBefore(to);
  }

  /**
   * What becomes of a difference the pass over unseen local movements found.
   *
   * @param shownElsewhere a file in force (the neighbouring day's) shows the movement
   * @return the difference, held until the date window has closed; empty when it is no difference
   *     of this day
   */
  public Optional<Difference> unseen(Difference d, boolean shownElsewhere) {
    if (shownElsewhere || d.local() == null || !inDay(movedAt(d))) {
      return Optional.empty();
    }
    Instant open = widenedTo();
    if (!d.actionableAt().isBefore(open)) {
      return Optional.of(d);
    }
    return Optional.of(
        new Difference(
            d.kind(), d.statement(), d.local(), d.sibling(), d.business(), open, d.detail()));
  }

  /** When the local movement took place, as the pass over unseen movements counts it. */
  private static Instant movedAt(Difference d) {
    return switch (d.kind()) {
      case REFUND_NOT_AT_PSP -> RefundLineClassifier.localRefundTime(d.local());
      case CHARGED_LOCAL_PAYING,
          LATE_CHARGE,
          BUSINESS_DONE_UNCONFIRMED,
          ATTRIBUTION_UNCLEAR,
          BIZ_SUCCESS_WITHOUT_CHARGE,
          REFUND_SETTLED_LOCAL_PENDING,
          DUPLICATE_CHARGE,
          AMOUNT_MISMATCH,
          CURRENCY_MISMATCH,
          UNKNOWN_STATEMENT_LINE,
          MISSING_FROM_STATEMENT,
          FEE_MISMATCH,
          ADJUSTMENT_TO_REVIEW ->
          d.local().updatedAt();
    };
  }
}
