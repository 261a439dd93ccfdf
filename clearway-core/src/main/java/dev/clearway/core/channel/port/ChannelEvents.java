package dev.clearway.core.channel.port;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.spi.ResultCertainty;

/** Observations for metrics (the on-call signals). */
public interface ChannelEvents {

  /** Every PSP answer about a payment, by account and certainty (unknown rate per account). */
  default void pspAnswer(long channelAccountId, String operation, ResultCertainty certainty) {}

  default void failoverDenied(String reason) {}

  default void failover(long fromAccountId, long toAccountId) {}

  default void attemptMoved(Attempt attempt, AttemptStatus to) {}

  /** An attempt charged although recorded failed: a second charge of one order. */
  default void multipleSuccess(String tradeOrderNo) {}

  /** A recorded observation lost its CAS: another path recorded first. */
  default void concurrentlyResolved() {}

  /**
   * A worker's write was refused because the worker no longer holds its lease (a recovery task's,
   * or a compensation's claim): nothing was written. {@code table} names the leased table ({@code
   * recovery_task}, {@code attempt_compensation}).
   */
  default void leaseLost(String table) {}

  ChannelEvents NONE = new ChannelEvents() {};
}
