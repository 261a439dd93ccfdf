package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.reconciliation.domain.StatementFact;
import java.time.Instant;
import java.util.Optional;

/** Classifies one refund line against the local row whose refund number it carries. */
final class RefundLineClassifier {
  private RefundLineClassifier() {}

  static Optional<Difference> classify(StatementFact line, LocalFact local, ReconWindow window) {
    long expected = local.refund() != null ? local.refund().amountMinor() : local.amountMinor();
    Optional<Difference> money = AmountCheck.of(line, local, expected);
    if (money.isPresent()) {
      return money;
    }
    if (line.succeeded()) {
      return locallyInFlight(local)
          ? Optional.of(
              Difference.between(
                  DifferenceClass.REFUND_SETTLED_LOCAL_PENDING,
                  line,
                  local,
                  "PSP refunded, local refund " + localRefundState(local)))
          : Optional.empty();
    }
    if (!local.locallyRefunded()) {
      return Optional.empty();
    }
    return Optional.of(
        new Difference(
            DifferenceClass.REFUND_NOT_AT_PSP,
            line,
            local,
            null,
            null,
            window.settledBy(localRefundTime(local)),
            "local refund succeeded, PSP still processing"));
  }

  /** Whether the local side has not settled the refund yet (or settled it as failed). */
  private static boolean locallyInFlight(LocalFact local) {
    if (local.refund() != null) {
      return !local.locallyRefunded();
    }
    return local.flowStatus() != FlowStatus.REFUNDED;
  }

  static Instant localRefundTime(LocalFact local) {
    return local.refund() != null ? local.refund().updatedAt() : local.updatedAt();
  }

  private static String localRefundState(LocalFact local) {
    return local.refund() != null ? local.refund().status().name() : local.flowStatus().name();
  }
}
