package dev.clearway.core.channel.port;

import java.time.Instant;
import java.util.Optional;

/** The provider refund numbers of the flow's refunds, each bound to the charged attempt. */
public interface ChannelRefundStore {

  /** The provider refund number of a flow refund, bound to the attempt on first use. */
  ChannelRefund channelRefund(String refundOrderNo, long attemptId, long amount, Instant now);

  Optional<ChannelRefund> findChannelRefund(String refundOrderNo);

  /** A refund the PSP CLOSED needs a new number: generation + 1, CAS on the generation. */
  boolean nextRefundGeneration(ChannelRefund expected, Instant now);

  record ChannelRefund(
      String refundOrderNo, long attemptId, String providerRefundNo, int generation, long amount) {}
}
