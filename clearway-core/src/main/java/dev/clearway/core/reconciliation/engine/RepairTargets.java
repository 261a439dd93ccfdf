package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.channel.engine.AttemptRecorder;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.reconciliation.port.RefundRequests;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.runtime.LeaseTokens;
import java.util.Objects;

/**
 * The engines an automatic repair writes through: each repair is one of their own transitions.
 *
 * @param attempts the channel layer's attempts, or null where flows are paid without it
 * @param recorder the channel layer's one recording path of provider evidence, or null with {@code
 *     attempts}
 * @param refundRequests the refund engine's entry, for the late-charge refund
 * @param flowWakeups told of every flow a repair moved, so its engine continues at once
 * @param leases the leases under which a refund order is moved (its writes are lease-fenced)
 */
public record RepairTargets(
    FlowStore flows,
    AttemptStore attempts,
    AttemptRecorder recorder,
    RefundStore refunds,
    RefundRequests refundRequests,
    WakeupScheduler flowWakeups,
    LeaseTokens leases) {
  public RepairTargets {
    Objects.requireNonNull(flows, "flows");
    Objects.requireNonNull(refunds, "refunds");
    Objects.requireNonNull(refundRequests, "refundRequests");
    Objects.requireNonNull(flowWakeups, "flowWakeups");
    Objects.requireNonNull(leases, "leases");
    if ((attempts == null) != (recorder == null)) {
      throw new IllegalArgumentException("attempts and their recorder come together");
    }
  }
}
