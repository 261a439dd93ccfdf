package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.decision.RepairCommand;
import dev.clearway.core.reconciliation.decision.RepairCommand.NoRepair;
import dev.clearway.core.reconciliation.decision.RepairCommand.OpenTicket;
import dev.clearway.core.reconciliation.decision.RepairCommand.Wait;
import dev.clearway.core.reconciliation.decision.RepairDecision;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.RepairOutcome;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.DifferenceStore.Move;
import dev.clearway.core.reconciliation.port.RepairActions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Works the differences that are due: claims a page under a lease, and for each reads the local row
 * again, looks again at the statements in force (a line may sit in the neighbouring day's file),
 * decides with {@link RepairDecision} and moves the difference, every move a compare-and-set with
 * its history row:
 *
 * <ul>
 *   <li>the statement now shows what was missing, or the row has moved past the repair: RESOLVED;
 *   <li>the PSP may still show it: stays OPEN until the new actionable time;
 *   <li>a person must decide, or the match is only suggested: NEEDS_PERSON;
 *   <li>an automatic repair of a confirmed match: AUTO_REPAIRING, then the repair through the
 *       engines' transitions; RESOLVED when applied or already done, retried after a lost race,
 *       NEEDS_PERSON when refused.
 * </ul>
 *
 * The difference is rebuilt from fresh facts, not from its stored evidence ({@link
 * DifferenceRebuild}).
 */
public final class RepairPass {

  /** What one round did. */
  public record Round(
      int claimed, int resolved, int autoRepaired, int tickets, int waiting, int retrying) {
    public boolean idle() {
      return claimed == 0;
    }
  }

  private final ReconPorts ports;
  private final RepairActions actions;
  private final ReconConfig config;
  private final Clock clock;
  private final DifferenceRebuild rebuild;

  public RepairPass(ReconPorts ports, RepairActions actions, ReconConfig config, Clock clock) {
    this.ports = ports;
    this.actions = actions;
    this.config = config;
    this.clock = clock;
    this.rebuild = new DifferenceRebuild(ports);
  }

  /** Claims one page of due differences and works each. */
  public Round runOnce() {
    Instant now = clock.instant();
    List<RecordedDifference> due =
        ports.differences().claimDue(config.owner(), now.plus(config.lease()), now, config.batch());
    Tally tally = new Tally();
    for (RecordedDifference rd : due) {
      work(rd, tally);
    }
    return new Round(
        due.size(), tally.resolved, tally.repaired, tally.tickets, tally.waiting, tally.retrying);
  }

  /** Rounds until nothing is due or {@code maxRounds} ran; the sum of the rounds. */
  public Round runUntilIdle(int maxRounds) {
    Round sum = new Round(0, 0, 0, 0, 0, 0);
    for (int i = 0; i < maxRounds; i++) {
      Round r = runOnce();
      if (r.idle()) {
        break;
      }
      sum =
          new Round(
              sum.claimed() + r.claimed(),
              sum.resolved() + r.resolved(),
              sum.autoRepaired() + r.autoRepaired(),
              sum.tickets() + r.tickets(),
              sum.waiting() + r.waiting(),
              sum.retrying() + r.retrying());
    }
    return sum;
  }

  private void work(RecordedDifference rd, Tally tally) {
    Instant now = clock.instant();
    LocalFact local = rebuild.local(rd).orElse(null);
    if (waitsForStatement(rd)
        && rebuild.line(rd, local).filter(StatementFact::succeeded).isPresent()) {
      resolve(rd, rd.state(), rd.version(), "the statements in force now show it", tally);
      return;
    }
    Optional<Difference> d = rebuild.rebuild(rd, local);
    if (d.isEmpty()) {
      ticket(rd, "neither the local row nor the statement line can be found again", tally);
      return;
    }
    RepairCommand command = RepairDecision.decide(d.get(), local, now);
    if (command instanceof Wait w) {
      boolean moved = move(rd, rd.state(), rd.version(), rd.state(), w.reason(), w.until());
      tally.waiting += moved ? 1 : 0;
    } else if (command instanceof OpenTicket t) {
      ticket(rd, t.reason(), tally);
    } else if (command instanceof NoRepair n) {
      resolve(rd, rd.state(), rd.version(), n.reason(), tally);
    } else if (rd.confidence() != MatchConfidence.CONFIRMED) {
      ticket(rd, "a " + rd.confidence() + " match is confirmed by a person", tally);
    } else {
      repair(rd, command, tally);
    }
  }

  private void repair(RecordedDifference rd, RepairCommand command, Tally tally) {
    long version = rd.version();
    if (rd.state() == DifferenceState.OPEN) {
      if (!move(
          rd,
          DifferenceState.OPEN,
          version,
          DifferenceState.AUTO_REPAIRING,
          "repairing: " + command.getClass().getSimpleName(),
          null)) {
        return;
      }
      version++;
    }
    RepairOutcome outcome = actions.apply(command, clock.instant());
    ports.events().repaired(rd.kind().repairKind(), outcome.result());
    switch (outcome.result()) {
      case APPLIED, ALREADY_DONE -> {
        if (resolve(rd, DifferenceState.AUTO_REPAIRING, version, outcome.detail(), tally)
            && outcome.result() == RepairOutcome.Result.APPLIED) {
          tally.repaired++;
        }
      }
      case LOST_RACE -> {
        Instant retry = clock.instant().plus(config.retryAfter());
        boolean moved =
            move(
                rd,
                DifferenceState.AUTO_REPAIRING,
                version,
                DifferenceState.AUTO_REPAIRING,
                "lost a race, retried: " + outcome.detail(),
                retry);
        tally.retrying += moved ? 1 : 0;
      }
      case REFUSED -> {
        if (move(
            rd,
            DifferenceState.AUTO_REPAIRING,
            version,
            DifferenceState.NEEDS_PERSON,
            "repair refused: " + outcome.detail() + "; confirm " + rd.kind().mustConfirm(),
            null)) {
          tally.tickets++;
          ports.events().ticketOpened(rd.kind());
        }
      }
    }
  }

  private boolean resolve(
      RecordedDifference rd, DifferenceState from, long version, String why, Tally tally) {
    boolean moved = move(rd, from, version, DifferenceState.RESOLVED, why, null);
    tally.resolved += moved ? 1 : 0;
    return moved;
  }

  private void ticket(RecordedDifference rd, String why, Tally tally) {
    String detail = why + "; confirm " + rd.kind().mustConfirm();
    if (move(rd, rd.state(), rd.version(), DifferenceState.NEEDS_PERSON, detail, null)) {
      tally.tickets++;
      ports.events().ticketOpened(rd.kind());
    }
  }

  private boolean move(
      RecordedDifference rd,
      DifferenceState from,
      long version,
      DifferenceState next,
      String detail,
      Instant actionableAt) {
    // 0 rows: the lease expired and another node claimed the difference; it decides now.
    return ports
        .differences()
        .move(
            new Move(
                rd.id(),
                version,
                from,
                next,
                config.owner(),
                config.owner(),
                detail,
                actionableAt,
                clock.instant()));
  }

  private static boolean waitsForStatement(RecordedDifference rd) {
    return switch (rd.kind()) {
      case MISSING_FROM_STATEMENT, REFUND_NOT_AT_PSP, BIZ_SUCCESS_WITHOUT_CHARGE -> true;
      case CHARGED_LOCAL_PAYING,
          LATE_CHARGE,
          BUSINESS_DONE_UNCONFIRMED,
          ATTRIBUTION_UNCLEAR,
          REFUND_SETTLED_LOCAL_PENDING,
          DUPLICATE_CHARGE,
          AMOUNT_MISMATCH,
          CURRENCY_MISMATCH,
          UNKNOWN_STATEMENT_LINE,
          FEE_MISMATCH,
          ADJUSTMENT_TO_REVIEW ->
          false;
    };
  }

  /** The counts of one round. */
  private static final class Tally {
    int resolved;
    int repaired;
    int tickets;
    int waiting;
    int retrying;
  }
}
