package dev.clearway.lab.channel;

import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.util.Map;

/**
 * The engine's observations during the chaos run: passed on to the metrics and counted by channel
 * (failovers, refused failovers, charges after failure, lost races). Attempt moves are not passed
 * on.
 */
final class ChaosEvents implements ChannelEvents {

  private final ChannelEvents metrics;
  private final ChaosCounts counts;
  private final Map<Long, String> channelOf;
  private final ChaosPaymentMix mix;

  ChaosEvents(
      ChannelEvents metrics, ChaosCounts counts, Map<Long, String> channelOf, ChaosPaymentMix mix) {
    this.metrics = metrics;
    this.counts = counts;
    this.channelOf = channelOf;
    this.mix = mix;
  }

  @Override
  public void pspAnswer(long account, String operation, ResultCertainty certainty) {
    metrics.pspAnswer(account, operation, certainty);
  }

  @Override
  public void failoverDenied(String reason) {
    metrics.failoverDenied(reason);
    counts.count("failoverDenied_" + reason);
  }

  @Override
  public void failover(long from, long to) {
    metrics.failover(from, to);
    counts.count("failovers");
    counts.count(channelOf.getOrDefault(from, "other") + "_failovers");
  }

  @Override
  public void multipleSuccess(String trade) {
    metrics.multipleSuccess(trade);
    counts.count("chargedAfterFailure");
    counts.count(mix.channel(trade) + "_chargedAfterFailure");
  }

  @Override
  public void concurrentlyResolved() {
    counts.count("lostRaces");
  }

  @Override
  public void leaseLost(String table) {
    metrics.leaseLost(table);
    counts.count("leaseLost_" + table);
  }
}
