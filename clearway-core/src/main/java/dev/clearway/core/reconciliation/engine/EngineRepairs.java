package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.engine.AttemptRecorder;
import dev.clearway.core.channel.engine.AttemptRecorder.Observation;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.reconciliation.decision.RepairCommand;
import dev.clearway.core.reconciliation.decision.RepairCommand.ConfirmBusinessSuccess;
import dev.clearway.core.reconciliation.decision.RepairCommand.NoRepair;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundLateCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundUnattributedCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleAttemptPaid;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleFlowRefunded;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleRefundSucceeded;
import dev.clearway.core.reconciliation.decision.StatementEvidence;
import dev.clearway.core.reconciliation.domain.RepairOutcome;
import dev.clearway.core.reconciliation.port.RefundRequests;
import dev.clearway.core.reconciliation.port.RepairActions;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Applies the automatic repairs through the engines' own transitions, from the version each command
 * was decided on; never by writing the PSP's value over a row. Every repair is idempotent: applied
 * again, it finds the row where the first application took it and answers ALREADY_DONE.
 *
 * <ul>
 *   <li>a charge on a PAYING flow: its attempt records the statement as RECONCILIATION evidence
 *       through the channel layer's one recording path (the attempt becomes SUCCEEDED and the flow
 *       is woken, its engine moves it to PAYED and on to the business); a flow paid without the
 *       channel layer moves PAYING to PAYED itself;
 *   <li>a charge on an order ended without payment: the LATE_CHARGE refund through the refund
 *       engine, under the per-flow key the late-charge checker uses, so either one creates it once;
 *   <li>the business named this order: PAYED to BIZ_SUCCESS;
 *   <li>a refund the PSP settled: the refund order PROCESSING or ABNORMAL to SUCCESS, or the flow
 *       REFUNDING to REFUNDED for its own compensation refund;
 *   <li>a charge the business did not use: PAYED to REFUNDING, as a person's FORCE_REFUND; the
 *       flow's engine then refunds it under its own refund number.
 * </ul>
 */
public final class EngineRepairs implements RepairActions {
  private final FlowMoves flows;
  private final AttemptStore attempts;
  private final AttemptRecorder recorder;
  private final RefundRequests refundRequests;
  private final RefundOrderSettler refundOrders;

  public EngineRepairs(RepairTargets targets) {
    this.flows = new FlowMoves(targets.flows(), targets.flowWakeups());
    this.attempts = targets.attempts();
    this.recorder = targets.recorder();
    this.refundRequests = targets.refundRequests();
    this.refundOrders = new RefundOrderSettler(targets.refunds(), targets.leases());
  }

  @Override
  public RepairOutcome apply(RepairCommand command, Instant now) {
    if (command instanceof SettleAttemptPaid c) {
      return settlePaid(c, now);
    }
    if (command instanceof RefundLateCharge c) {
      return refundLateCharge(c);
    }
    if (command instanceof ConfirmBusinessSuccess c) {
      return flows.move(c.flowId(), c.flowVersion(), FlowStatus.BIZ_SUCCESS, "RECON_CONFIRM", now);
    }
    if (command instanceof SettleRefundSucceeded c) {
      return refundOrders.settle(c, now);
    }
    if (command instanceof SettleFlowRefunded c) {
      return flows.move(c.flowId(), c.flowVersion(), FlowStatus.REFUNDED, "RECON_REFUNDED", now);
    }
    if (command instanceof RefundUnattributedCharge c) {
      return refundUnattributed(c, now);
    }
    if (command instanceof NoRepair c) {
      return RepairOutcome.alreadyDone(c.reason());
    }
    // Wait and OpenTicket change nothing: the repair pass never hands them here.
    return RepairOutcome.refused("not an automatic repair: " + command);
  }

  private RepairOutcome settlePaid(SettleAttemptPaid c, Instant now) {
    if (c.attemptId() == null) {
      return flows.move(c.flowId(), c.flowVersion(), FlowStatus.PAYED, "RECON_SETTLE_PAID", now);
    }
    if (attempts == null) {
      return RepairOutcome.refused("an attempt to settle, and no channel layer here");
    }
    Optional<Attempt> found = attempts.attempt(c.attemptId());
    if (found.isEmpty()) {
      return RepairOutcome.refused("attempt " + c.attemptId() + " not found");
    }
    Attempt attempt = found.get();
    if (attempt.status() == AttemptStatus.SUCCEEDED) {
      flows.wake(c.flowId(), now);
      return RepairOutcome.alreadyDone("attempt already SUCCEEDED");
    }
    if (attempt.isFinal()) {
      // A charge on a FAILED or CLOSED attempt is refunded by the compensation path, never
      // rewritten: that is a person's call here.
      return RepairOutcome.refused("attempt " + attempt.status() + " is final");
    }
    if (c.attemptVersion() == null || attempt.version() != c.attemptVersion()) {
      return RepairOutcome.lostRace("attempt moved to version " + attempt.version());
    }
    StatementEvidence ev = c.evidence();
    if (ev.amountMinor() != attempt.money().amount()
        || !ev.currency().equals(attempt.money().currency())) {
      return RepairOutcome.refused("the statement's amount differs from the attempt's");
    }
    PspOutcome outcome =
        PspOutcome.succeeded(ev.pspReference())
            .withProviderStatus("STATEMENT")
            .withAmount(ev.amountMinor());
    Attempt after =
        recorder.record(
            Observation.observed(
                attempt, outcome, EvidenceSource.RECONCILIATION, "STATEMENT", null, null));
    if (after.status() != AttemptStatus.SUCCEEDED) {
      return RepairOutcome.lostRace("attempt became " + after.status() + " meanwhile");
    }
    flows.wake(c.flowId(), now);
    return after.version() == attempt.version() + 1
        ? RepairOutcome.applied("attempt " + attempt.status() + " -> SUCCEEDED")
        : RepairOutcome.alreadyDone("attempt SUCCEEDED by another observer");
  }

  private RepairOutcome refundLateCharge(RefundLateCharge c) {
    Optional<PayFlow> flow = flows.find(c.flowId());
    if (flow.isEmpty()) {
      return RepairOutcome.refused("flow " + c.flowId() + " not found");
    }
    if (flow.get().amount() != c.amountMinor() || !flow.get().currency().equals(c.currency())) {
      return RepairOutcome.refused("the statement's amount differs from the order's");
    }
    List<Attempt> tried = attempts == null ? List.of() : attempts.attempts(c.tradeOrderNo());
    if (!tried.isEmpty()) {
      return compensateLateCharge(c, tried);
    }
    // The per-flow key: this request, a repeat, and the late-charge checker's are one refund.
    CreateOutcome outcome =
        refundRequests.request(NewRefund.lateCharge(c.flowId(), c.amountMinor()));
    if (outcome instanceof CreateOutcome.Created created) {
      return RepairOutcome.applied("LATE_CHARGE refund " + created.refund().refundNo());
    }
    if (outcome instanceof CreateOutcome.Replayed replayed) {
      return RepairOutcome.alreadyDone("LATE_CHARGE refund " + replayed.refund().refundNo());
    }
    if (outcome instanceof CreateOutcome.NotAllowed no) {
      return RepairOutcome.refused("no late-charge refund from flow " + no.status());
    }
    if (outcome instanceof CreateOutcome.ExceedsPayment ex) {
      return RepairOutcome.refused("the refund exceeds what is left: " + ex.available());
    }
    if (outcome instanceof CreateOutcome.KeyReused) {
      return RepairOutcome.refused("the late-charge key was used with another amount");
    }
    return RepairOutcome.refused("flow " + c.flowId() + " not found");
  }

  /**
   * A late charge on an order sent through the channel layer: no attempt of it succeeded, so the
   * flow's wallet has nothing to refund. The attempt the PSP charged records the statement as
   * RECONCILIATION evidence through the one recording path, which opens that attempt's
   * compensation: the charge goes back on the channel that took it, the attempt stays FAILED. Which
   * attempt: the one whose PSP reference the statement names, else the only final one.
   */
  private RepairOutcome compensateLateCharge(RefundLateCharge c, List<Attempt> tried) {
    if (tried.stream().anyMatch(a -> a.status() == AttemptStatus.SUCCEEDED)) {
      return RepairOutcome.refused("an attempt of the order succeeded: not a late charge");
    }
    StatementEvidence ev = c.evidence();
    List<Attempt> candidates =
        tried.stream()
            .filter(Attempt::isFinal)
            .filter(
                a ->
                    a.providerPaymentId() == null
                        || a.providerPaymentId().equals(ev.pspReference()))
            .toList();
    List<Attempt> named =
        candidates.stream()
            .filter(
                a -> ev.pspReference() != null && ev.pspReference().equals(a.providerPaymentId()))
            .toList();
    List<Attempt> chosen = named.size() == 1 ? named : candidates;
    if (chosen.size() != 1) {
      return RepairOutcome.refused(
          "the late charge matches " + chosen.size() + " attempts: a person decides");
    }
    Attempt attempt = chosen.get(0);
    PspOutcome outcome =
        PspOutcome.succeeded(ev.pspReference())
            .withProviderStatus("STATEMENT")
            .withAmount(ev.amountMinor());
    recorder.record(
        Observation.observed(
            attempt, outcome, EvidenceSource.RECONCILIATION, "STATEMENT", null, null));
    return RepairOutcome.applied("compensation of attempt " + attempt.id() + " opened");
  }

  private RepairOutcome refundUnattributed(RefundUnattributedCharge c, Instant now) {
    Optional<PayFlow> flow = flows.find(c.flowId());
    if (flow.isEmpty()) {
      return RepairOutcome.refused("flow " + c.flowId() + " not found");
    }
    if (c.refundOrderNo() == null || !c.refundOrderNo().equals(flow.get().refundOrderNo())) {
      return RepairOutcome.refused("the refund number is not the flow's own");
    }
    return flows.move(c.flowId(), c.flowVersion(), FlowStatus.REFUNDING, "RECON_REFUND", now);
  }
}
