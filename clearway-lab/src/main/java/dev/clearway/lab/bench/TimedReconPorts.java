package dev.clearway.lab.bench;

import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.engine.ReconPorts;
import dev.clearway.core.reconciliation.port.AgreeingLines;
import dev.clearway.core.reconciliation.port.DifferenceStore;
import dev.clearway.core.reconciliation.port.SettlementStore;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The reconciliation ports of the bench's timed run, each counting its time in a phase of {@link
 * ReconPhases}: the difference store in {@code differences}, the settlement store in {@code
 * settlement}, the unseen movements' stream (open to close, less the differences recorded
 * meanwhile) in {@code unseen}. The store's own split of the claim (selection, settlement) is
 * passed in by the store.
 */
final class TimedReconPorts {
  private TimedReconPorts() {}

  static ReconPorts of(ReconPorts ports, ReconPhases phases) {
    return new ReconPorts(
        ports.statements(),
        ports.facts(),
        ports.locals(),
        ports.localDay(),
        ports.business(),
        ports.terms(),
        ports.runs(),
        new Differences(ports.differences(), phases),
        new Settlements(ports.settlements(), phases),
        ports.events());
  }

  static AgreeingLines of(AgreeingLines agreeing, ReconPhases phases) {
    return (fileId, account, terms, at) ->
        new Claim(agreeing.claim(fileId, account, terms, at), phases);
  }

  private static <T> T timed(ReconPhases phases, String phase, Supplier<T> work) {
    long t0 = System.nanoTime();
    try {
      return work.get();
    } finally {
      phases.add(phase, System.nanoTime() - t0);
    }
  }

  private record Differences(DifferenceStore store, ReconPhases phases) implements DifferenceStore {
    @Override
    public Recorded record(Found found, Instant now) {
      return timed(phases, ReconPhases.DIFFERENCES, () -> store.record(found, now));
    }

    @Override
    public Optional<RecordedDifference> find(long id) {
      return store.find(id);
    }

    @Override
    public List<RecordedDifference> claimDue(
        String owner, Instant leaseUntil, Instant now, int limit) {
      return store.claimDue(owner, leaseUntil, now, limit);
    }

    @Override
    public boolean move(Move move) {
      return store.move(move);
    }
  }

  private record Settlements(SettlementStore store, ReconPhases phases) implements SettlementStore {
    @Override
    public void mark(Mark mark) {
      timed(
          phases,
          ReconPhases.SETTLEMENT,
          () -> {
            store.mark(mark);
            return null;
          });
    }

    @Override
    public void markAll(List<Mark> marks) {
      timed(
          phases,
          ReconPhases.SETTLEMENT,
          () -> {
            store.markAll(marks);
            return null;
          });
    }

    @Override
    public Optional<SettlementStatus> status(String tradeOrderNo) {
      return timed(phases, ReconPhases.SETTLEMENT, () -> store.status(tradeOrderNo));
    }

    @Override
    public Map<String, SettlementStatus> statuses(Collection<String> tradeOrderNos) {
      return timed(phases, ReconPhases.SETTLEMENT, () -> store.statuses(tradeOrderNos));
    }
  }

  private record Claim(AgreeingLines.Claim claim, ReconPhases phases)
      implements AgreeingLines.Claim {
    @Override
    public long agreed() {
      return claim.agreed();
    }

    @Override
    public Stream<StatementFact> remaining() {
      return claim.remaining();
    }

    @Override
    public Stream<AgreeingLines.Unseen> unseen(Instant from, Instant to) {
      long t0 = System.nanoTime();
      long differences0 = phases.nanos(ReconPhases.DIFFERENCES);
      return claim
          .unseen(from, to)
          .onClose(
              () ->
                  phases.add(
                      ReconPhases.UNSEEN,
                      System.nanoTime()
                          - t0
                          - (phases.nanos(ReconPhases.DIFFERENCES) - differences0)));
    }

    @Override
    public void close() {
      claim.close();
    }
  }
}
