package dev.clearway.service.testkit;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.port.EngineEvents;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts engine events by key, e.g. {@code "transition:PAYED->BIZ_SUCCESS"}, {@code "frozen"},
 * {@code "leaseLost:pay_flow"}.
 */
public final class CountingEvents implements EngineEvents {
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  public long count(String key) {
    LongAdder a = counts.get(key);
    return a == null ? 0 : a.sum();
  }

  private void inc(String key) {
    counts.computeIfAbsent(key, k -> new LongAdder()).increment();
  }

  @Override
  public void transitioned(FlowStatus from, FlowStatus to) {
    inc("transition:" + from + "->" + to);
  }

  @Override
  public void casConflict(FlowStatus intended, FlowStatus found, String outcome) {
    inc("casConflict:" + outcome);
  }

  @Override
  public void externalCall(String kind, String resultClass) {
    inc("call:" + kind);
  }

  @Override
  public void escalated(long flowId, FlowStatus status, String errorCode) {
    inc("escalated");
  }

  @Override
  public void frozen(long flowId, String reason) {
    inc("frozen");
  }

  @Override
  public void refundBlockedByBizSuccess(long flowId) {
    inc("refundBlocked");
  }

  @Override
  public void leaseLost(String table) {
    inc("leaseLost:" + table);
  }
}
