package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.decision.DayBoundary;
import dev.clearway.core.reconciliation.decision.FeeBalance;
import dev.clearway.core.reconciliation.decision.MatchConfidenceRule;
import dev.clearway.core.reconciliation.decision.SeenKeys;
import dev.clearway.core.reconciliation.decision.Settlement;
import dev.clearway.core.reconciliation.decision.StatementMatcher;
import dev.clearway.core.reconciliation.decision.UnseenLocalPass;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.reconciliation.port.AgreeingLines;
import dev.clearway.core.reconciliation.port.DifferenceStore.Found;
import dev.clearway.core.reconciliation.port.DifferenceStore.Recorded;
import dev.clearway.core.reconciliation.port.SettlementStore.Mark;
import java.time.Clock;
import java.time.LocalDate;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One run of one account-day, streamed: the file's lines one at a time (only the numbers seen are
 * kept), then the local movements of the widened window. Holds the state of the line at hand: the
 * local row it matched and whether that match named two candidates.
 */
final class DayRun {
  /** How many lines between two renewals of the run's lease. */
  static final int RENEW_EVERY = 5_000;

  /** The run's lease was taken over: stop writing. */
  static final class LeaseLost extends RuntimeException {
    LeaseLost(String message) {
      super(message);
    }
  }

  /** The classes that say the money or the fee of a settled payment disagree. */
  private static final Set<DifferenceClass> SETTLEMENT_MISMATCH =
      EnumSet.of(
          DifferenceClass.AMOUNT_MISMATCH,
          DifferenceClass.CURRENCY_MISMATCH,
          DifferenceClass.FEE_MISMATCH,
          DifferenceClass.ADJUSTMENT_TO_REVIEW);

  private final ReconPorts ports;
  private final ReconConfig config;
  private final Clock clock;
  private final long runId;
  private final LocalDate day;
  private final long fileId;
  private final DayBoundary boundary;
  private final ReconWindow window;
  private final boolean feesGrouped;
  private final OptionalLong groupedFees;
  private final StatementMatcher matcher;
  private final AgreeingLines.Claim claim;
  private LocalFact matched;
  private boolean ambiguous;
  private long lines;
  private long differences;
  private long created;

  DayRun(
      ReconPorts ports,
      ReconConfig config,
      Clock clock,
      long runId,
      LocalDate day,
      long fileId,
      DayBoundary boundary,
      ReconWindow window,
      AgreeingLines.Claim claim) {
    this.ports = ports;
    this.claim = claim;
    this.config = config;
    this.clock = clock;
    this.runId = runId;
    this.day = day;
    this.fileId = fileId;
    this.boundary = boundary;
    this.window = window;
    this.groupedFees = ports.facts().groupedFees(fileId);
    this.feesGrouped = groupedFees.isPresent();
    this.matcher =
        new StatementMatcher(
            ports.locals(),
            ports.business(),
            window,
            feesGrouped,
            (line, local, twoCandidates) -> {
              matched = local;
              ambiguous = twoCandidates;
            });
  }

  ReconCounts run() {
    FeeBalance fees = new FeeBalance(window.terms());
    if (claim != null) {
      lines = claim.agreed();
      renew();
    }
    try (Stream<StatementFact> statement = ports.facts().lines(fileId, window.account())) {
      Iterator<StatementFact> it = statement.iterator();
      while (it.hasNext()) {
        StatementFact line = it.next();
        matchLine(line);
        if (line.kind() == StatementKind.CHARGE) {
          fees.charge(line);
        }
        if (++lines % RENEW_EVERY == 0) {
          renew();
        }
      }
    }
    if (groupedFees.isPresent()) {
      fees.check(groupedFees.getAsLong(), day, window.to())
          .ifPresent(d -> record(d, feeConfidence(d, fees)));
    }
    if (claim == null) {
      try (Stream<LocalFact> local =
          ports
              .localDay()
              .movementsIn(window.account(), boundary.widenedFrom(), boundary.widenedTo())) {
        UnseenLocalPass.run(local.iterator(), matcher.seen(), window, this::unseen);
      }
    } else {
      try (Stream<AgreeingLines.Unseen> local =
          claim.unseen(boundary.widenedFrom(), boundary.widenedTo())) {
        UnseenLocalPass.run(shownMarked(local.iterator()), matcher.seen(), window, this::unseen);
      }
    }
    return new ReconCounts(lines, differences, created, 0, 0);
  }

  /** The candidates, each charge an agreeing line showed counted as seen before it is passed. */
  private Iterator<LocalFact> shownMarked(Iterator<AgreeingLines.Unseen> candidates) {
    SeenKeys seen = matcher.seen();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return candidates.hasNext();
      }

      @Override
      public LocalFact next() {
        AgreeingLines.Unseen u = candidates.next();
        if (u.chargeShown()) {
          seen.chargeShown(u.local().tradeOrderNo());
        }
        return u.local();
      }
    };
  }

  private void matchLine(StatementFact line) {
    matched = null;
    ambiguous = false;
    List<Difference> found = matcher.match(line);
    Long mismatch = null;
    for (Difference d : found) {
      MatchConfidence confidence =
          MatchConfidenceRule.of(d, ambiguous, config.tolerances(), window.terms());
      long id = record(d, confidence);
      if (SETTLEMENT_MISMATCH.contains(d.kind())) {
        mismatch = id;
      }
    }
    if (matched != null) {
      settle(line, matched, mismatch);
    }
  }

  /**
   * The settlement status of a matched line: a succeeded charge settles its payment (or marks it
   * MISMATCH with its difference); a PSP adjustment turns it MISMATCH. A payment already MISMATCH
   * is never set back to SETTLED by a run: a person resolves its difference.
   */
  private void settle(StatementFact line, LocalFact local, Long mismatch) {
    SettlementStatus status;
    if (line.kind() == StatementKind.CHARGE && line.succeeded()) {
      status = Settlement.of(local, line, window.terms(), feesGrouped);
    } else if (line.kind() == StatementKind.ADJUSTMENT && mismatch != null) {
      status = SettlementStatus.MISMATCH;
    } else {
      return;
    }
    if (status == SettlementStatus.SETTLED
        && ports.settlements().status(local.tradeOrderNo()).orElse(null)
            == SettlementStatus.MISMATCH) {
      return;
    }
    ports
        .settlements()
        .mark(
            new Mark(
                local.tradeOrderNo(),
                status,
                status == SettlementStatus.MISMATCH ? mismatch : null,
                fileId,
                null,
                clock.instant()));
  }

  private void unseen(Difference d) {
    boundary.unseen(d, shownElsewhere(d)).ifPresent(held -> record(held, MatchConfidence.NONE));
  }

  /** Whether a file in force (the neighbouring day's, typically) shows the movement. */
  private boolean shownElsewhere(Difference d) {
    LocalFact local = d.local();
    String account = window.account();
    if (d.kind() == DifferenceClass.REFUND_NOT_AT_PSP) {
      return RefundLines.of(ports.facts(), account, local).stream()
          .anyMatch(StatementFact::succeeded);
    }
    return ports.facts().linesFor(account, local.tradeOrderNo(), local.attemptKey()).stream()
        .anyMatch(l -> l.kind() == StatementKind.CHARGE && l.succeeded());
  }

  private MatchConfidence feeConfidence(Difference d, FeeBalance fees) {
    return Math.abs(d.statement().amountMinor() - fees.expected()) <= config.tolerances().feeMinor()
        ? MatchConfidence.SUGGESTED
        : MatchConfidence.CONFIRMED;
  }

  private long record(Difference d, MatchConfidence confidence) {
    differences++;
    Recorded r =
        ports
            .differences()
            .record(new Found(runId, day, d, confidence, fileId, null), clock.instant());
    if (r.created()) {
      created++;
      ports.events().differenceFound(d.kind(), amountOf(d));
    }
    return r.difference().id();
  }

  private static long amountOf(Difference d) {
    return d.statement() != null ? d.statement().amountMinor() : d.local().amountMinor();
  }

  private void renew() {
    if (!ports.runs().renew(runId, config.owner(), clock.instant().plus(config.lease()))) {
      throw new LeaseLost("run " + runId + " taken over at line " + lines);
    }
  }
}
