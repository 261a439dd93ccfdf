package dev.clearway.sim.psp.wechat;

import dev.clearway.sim.FaultPlan;
import java.time.Duration;
import java.util.Objects;

/**
 * How the simulated PSP answers a new refund, chosen deterministically per {@code out_refund_no}
 * from the seed: CLOSED with {@code closedRate}, ABNORMAL with {@code abnormalRate}, PROCESSING
 * with {@code processingRate} (SUCCESS after {@code processingFor}), SUCCESS otherwise.
 */
public record RefundBehaviour(
    double processingRate, double abnormalRate, double closedRate, Duration processingFor) {

  public RefundBehaviour {
    if (processingRate < 0 || abnormalRate < 0 || closedRate < 0) {
      throw new IllegalArgumentException("rates must not be negative");
    }
    if (processingRate + abnormalRate + closedRate > 1) {
      throw new IllegalArgumentException("rates must sum to at most 1");
    }
    Objects.requireNonNull(processingFor, "processingFor");
    if (processingFor.isNegative()) {
      throw new IllegalArgumentException("processingFor must not be negative");
    }
  }

  /** Every refund succeeds at once. */
  public static RefundBehaviour immediateSuccess() {
    return new RefundBehaviour(0, 0, 0, Duration.ofMillis(100));
  }

  /**
   * The first status of refund {@code outRefundNo} under {@code seed} (the faults' seed): SUCCESS,
   * PROCESSING, ABNORMAL or CLOSED. Public so that tests can pick numbers.
   */
  public String firstStatus(long seed, String outRefundNo) {
    double u = new FaultPlan(seed, 1).unit("wechat.refund", outRefundNo, 0);
    if (u < closedRate) {
      return WechatProtocol.REFUND_CLOSED;
    }
    if (u < closedRate + abnormalRate) {
      return WechatProtocol.REFUND_ABNORMAL;
    }
    if (u < closedRate + abnormalRate + processingRate) {
      return WechatProtocol.REFUND_PROCESSING;
    }
    return WechatProtocol.REFUND_SUCCESS;
  }
}
