package dev.clearway.core.refund;

import dev.clearway.core.domain.FlowStatus;
import dev.clearway.core.domain.PayFlow;
import dev.clearway.core.fact.Certainty;
import dev.clearway.core.fact.WalletResult;
import dev.clearway.core.port.FlowStore;
import dev.clearway.core.port.WalletGateway;
import dev.clearway.core.refund.RefundStore.CreateOutcome;
import java.util.Optional;

/**
 * A charge that lands on an order already ended without payment (a late pay after the order was
 * closed, where a wallet's close lost the race) is refunded, never revived: the flow stays PAY_FAIL
 * or CLOSED and a LATE_CHARGE refund order sends the money back. Something only hints (a callback);
 * the wallet's own answer to a query decides, and the refund key is fixed per flow, so any number
 * of hints create one refund.
 */
public final class LateChargeService {
  static final String REASON = "LATE_CHARGE_ON_CLOSED_ORDER";

  private final FlowStore flows;
  private final WalletGateway wallet;
  private final RefundService refunds;

  public LateChargeService(FlowStore flows, WalletGateway wallet, RefundService refunds) {
    this.flows = flows;
    this.wallet = wallet;
    this.refunds = refunds;
  }

  /** Checks a flow after a hint; returns the outcome when a late-charge refund was requested. */
  public Optional<CreateOutcome> check(long flowId) {
    Optional<PayFlow> read = flows.find(flowId);
    if (read.isEmpty()) {
      return Optional.empty();
    }
    PayFlow flow = read.get();
    if (flow.status() != FlowStatus.PAY_FAIL && flow.status() != FlowStatus.CLOSED) {
      return Optional.empty();
    }
    WalletResult fact = wallet.queryPayment(flow.tradeOrderNo());
    if (fact.certainty() != Certainty.SUCCESS) {
      return Optional.empty();
    }
    NewRefund refund =
        new NewRefund(
            flow.id(),
            flow.amount(),
            REASON,
            "clearway",
            "late-charge-" + flow.id(),
            RefundKind.LATE_CHARGE);
    return Optional.of(refunds.request(refund));
  }
}
