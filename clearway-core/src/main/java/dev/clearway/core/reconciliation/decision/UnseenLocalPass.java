package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * The pass over the local successes of one account-day that the statement never showed: a charge
 * the local side holds but the PSP does not list, a refund the local side settled but the PSP does
 * not list. Each is reported once, actionable when the account's settlement window has passed.
 */
public final class UnseenLocalPass {
  private UnseenLocalPass() {}

  /**
   * @param localInWindow the local views of the window's account and day, one at a time
   */
  public static void run(
      Iterator<LocalFact> localInWindow,
      SeenKeys seen,
      ReconWindow window,
      Consumer<Difference> sink) {
    while (localInWindow.hasNext()) {
      LocalFact local = localInWindow.next();
      if (local.locallyCharged() && seen.firstCharge(local.tradeOrderNo())) {
        sink.accept(missingCharge(local, window));
      }
      String refundNo = local.refundOrderNo();
      if (local.locallyRefunded() && refundNo != null && seen.firstRefund(refundNo)) {
        sink.accept(
            new Difference(
                DifferenceClass.REFUND_NOT_AT_PSP,
                null,
                local,
                null,
                null,
                window.settledBy(RefundLineClassifier.localRefundTime(local)),
                "local refund succeeded, not on the statement"));
      }
    }
  }

  private static Difference missingCharge(LocalFact local, ReconWindow window) {
    DifferenceClass kind =
        local.flowStatus() == FlowStatus.BIZ_SUCCESS
            ? DifferenceClass.BIZ_SUCCESS_WITHOUT_CHARGE
            : DifferenceClass.MISSING_FROM_STATEMENT;
    return new Difference(
        kind,
        null,
        local,
        null,
        null,
        window.settledBy(local.updatedAt()),
        "local " + local.flowStatus() + ", no charge on the statement");
  }
}
