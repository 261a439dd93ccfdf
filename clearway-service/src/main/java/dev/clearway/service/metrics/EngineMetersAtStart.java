package dev.clearway.service.metrics;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.fact.Certainty;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The engine's meters registered at zero when the service starts, with the tag values the engine
 * can produce: every legal transition, the dwell of every non-terminal state, reschedules and
 * escalations per non-terminal state, the wallet calls by kind and certainty, and the CAS conflicts
 * a legal transition can meet (IDEMPOTENT: found where it meant to go; CONTRADICTION: found at a
 * sibling target of the same state). Alert rules compare increases of these counters; a counter
 * that first appears with its first event would leave such a rule without a series to compare.
 */
final class EngineMetersAtStart {
  /** The wallet calls of the flow engine ({@code Advancer}), whose results are certainties. */
  static final List<String> WALLET_CALLS =
      List.of("PAY", "PAY_QUERY", "CLOSE", "REFUND", "REFUND_QUERY");

  private EngineMetersAtStart() {}

  static void register(MeterRegistry registry, Function<FlowStatus, Timer> dwell) {
    for (FlowStatus from : FlowStatus.values()) {
      if (from.isTerminal()) {
        continue;
      }
      dwell.apply(from);
      registry.counter("clearway.reschedules", "state", from.name());
      registry.counter("clearway.escalations", "state", from.name());
      List<FlowStatus> targets = new ArrayList<>(Transitions.targetsOf(from));
      for (FlowStatus to : targets) {
        registry.counter("clearway.transitions", "from", from.name(), "to", to.name());
        conflict(registry, "IDEMPOTENT", to, to);
        for (FlowStatus sibling : targets) {
          if (sibling != to) {
            conflict(registry, "CONTRADICTION", to, sibling);
          }
        }
      }
    }
    for (String kind : WALLET_CALLS) {
      for (Certainty c : Certainty.values()) {
        registry.counter("clearway.external.calls", "kind", kind, "result", c.name());
      }
    }
    registry.counter("clearway.scanner.hits");
    registry.counter("clearway.freezes");
    registry.counter("clearway.refunds.blocked_by_biz_success");
  }

  private static void conflict(
      MeterRegistry registry, String outcome, FlowStatus intended, FlowStatus found) {
    registry.counter(
        "clearway.cas.conflicts",
        "outcome",
        outcome,
        "intended",
        intended.name(),
        "found",
        found.name());
  }
}
