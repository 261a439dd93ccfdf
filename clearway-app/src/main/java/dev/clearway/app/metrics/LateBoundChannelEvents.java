package dev.clearway.app.metrics;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Channel events whose target (the meter registry of a Spring context) exists only after the
 * channel layer has started: events before {@link #bind} are dropped.
 */
public final class LateBoundChannelEvents implements ChannelEvents {

  private final AtomicReference<ChannelEvents> target = new AtomicReference<>(ChannelEvents.NONE);

  public void bind(ChannelEvents events) {
    target.set(events);
  }

  @Override
  public void pspAnswer(long channelAccountId, String operation, ResultCertainty certainty) {
    target.get().pspAnswer(channelAccountId, operation, certainty);
  }

  @Override
  public void failoverDenied(String reason) {
    target.get().failoverDenied(reason);
  }

  @Override
  public void failover(long fromAccountId, long toAccountId) {
    target.get().failover(fromAccountId, toAccountId);
  }

  @Override
  public void attemptMoved(Attempt attempt, AttemptStatus to) {
    target.get().attemptMoved(attempt, to);
  }

  @Override
  public void multipleSuccess(String tradeOrderNo) {
    target.get().multipleSuccess(tradeOrderNo);
  }

  @Override
  public void concurrentlyResolved() {
    target.get().concurrentlyResolved();
  }

  @Override
  public void leaseLost(String table) {
    target.get().leaseLost(table);
  }
}
