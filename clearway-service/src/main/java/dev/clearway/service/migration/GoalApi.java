package dev.clearway.service.migration;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.FlowView;
import dev.clearway.service.api.PaymentApi;
import dev.clearway.service.api.PaymentRequestValidator;
import java.util.Comparator;
import java.util.List;
import org.springframework.http.HttpStatus;

/**
 * A goal's query and cancel, addressed by the goal instead of a flow id, through the same routing
 * decision as its payment: a goal that lives on the legacy path answers the same hand-back.
 */
public final class GoalApi {
  private final FlowStore flows;
  private final PaymentApi payments;
  private final MigrationGate migration;

  public GoalApi(FlowStore flows, PaymentApi payments, MigrationGate migration) {
    this.flows = flows;
    this.payments = payments;
    this.migration = migration;
  }

  /** The goal's newest Clearway attempt, or the hand-back. */
  public FlowView find(String merchant, Long userId, String scene, String bizKey) {
    return FlowView.of(newest(routed(merchant, userId, scene, bizKey)));
  }

  /** Cancels the goal's live Clearway attempt (else its newest), or answers the hand-back. */
  public FlowView cancel(String merchant, Long userId, String scene, String bizKey) {
    List<PayFlow> attempts = routed(merchant, userId, scene, bizKey);
    PayFlow target =
        attempts.stream()
            .filter(f -> !f.status().isTerminal())
            .findFirst()
            .orElseGet(() -> newest(attempts));
    return payments.cancel(merchant, target.id());
  }

  private List<PayFlow> routed(String merchant, Long userId, String scene, String bizKey) {
    GoalKey goal = PaymentRequestValidator.goal(merchant, userId, scene, bizKey);
    migration.refuseUnlessClearway(migration.route(goal));
    return flows.findByGoal(goal);
  }

  private static PayFlow newest(List<PayFlow> attempts) {
    return attempts.stream()
        .max(Comparator.comparingInt(PayFlow::attemptNo))
        .orElseThrow(
            () ->
                new ApiException(
                    HttpStatus.NOT_FOUND, "flow_not_found", "no payment of this goal"));
  }
}
