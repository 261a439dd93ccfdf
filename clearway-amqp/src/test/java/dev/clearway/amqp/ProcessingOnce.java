package dev.clearway.amqp;

import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A wallet that answers PROCESSING to the first charge of each order without charging it, then
 * behaves as the wallet behind it: the flow stays PAYING and is left for later.
 */
final class ProcessingOnce implements WalletGateway {
  private final WalletGateway wallet;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  ProcessingOnce(WalletGateway wallet) {
    this.wallet = wallet;
  }

  @Override
  public WalletResult pay(ChargeRequest request) {
    if (seen.add(request.tradeOrderNo())) {
      return WalletResult.processing("held-" + request.tradeOrderNo());
    }
    return wallet.pay(request);
  }

  @Override
  public WalletResult queryPayment(String tradeOrderNo) {
    return wallet.queryPayment(tradeOrderNo);
  }

  @Override
  public WalletResult closePayment(String tradeOrderNo) {
    return wallet.closePayment(tradeOrderNo);
  }

  @Override
  public WalletResult refund(RefundRequest request) {
    return wallet.refund(request);
  }

  @Override
  public WalletResult queryRefund(String refundOrderNo) {
    return wallet.queryRefund(refundOrderNo);
  }
}
