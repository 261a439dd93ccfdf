package dev.clearway.core.reconciliation;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.reconciliation.domain.ReconRunStatus;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.reconciliation.engine.ReconPorts;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.core.reconciliation.port.DifferenceStore;
import dev.clearway.core.reconciliation.port.LocalDay;
import dev.clearway.core.reconciliation.port.ReconRuns;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.core.reconciliation.port.SettlementStore;
import dev.clearway.core.reconciliation.port.StatementFacts;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementStore;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The reconciliation ports held in maps, with the contracts the job and the pass rely on:
 * differences recorded once per (class, identity), moves that are compare-and-sets on (state,
 * version) fenced by the lease owner, one run per account-day under a lease.
 */
final class InMemoryRecon
    implements StatementFacts, LocalDay, AccountTermsSource, DifferenceStore, SettlementStore {
  final InMemoryFacts facts = new InMemoryFacts();
  final Map<Long, List<StatementFact>> files = new HashMap<>();
  final Map<Long, Long> feeTotals = new HashMap<>();
  final Map<LocalDate, Long> current = new HashMap<>();
  final Map<Long, ReconRun> runs = new LinkedHashMap<>();
  final Map<String, RecordedDifference> differences = new LinkedHashMap<>();
  final Map<Long, Difference> found = new HashMap<>();
  final List<String> history = new ArrayList<>();
  final Map<String, SettlementStatus> settlement = new HashMap<>();
  final List<Mark> marks = new ArrayList<>();
  final List<String> events = new ArrayList<>();
  String heldBy;
  RuntimeException failLocalDay;

  ReconPorts ports() {
    return new ReconPorts(
        statementStore(), this, facts, this, facts, this, new Runs(), this, this, eventsSink());
  }

  InMemoryRecon file(long id, LocalDate day, StatementFact... lines) {
    files.put(id, new ArrayList<>(List.of(lines)));
    current.put(day, id);
    return this;
  }

  private ReconciliationEvents eventsSink() {
    return new ReconciliationEvents() {
      @Override
      public void differenceFound(
          dev.clearway.core.reconciliation.domain.DifferenceClass kind, long amountMinor) {
        events.add("found " + kind + " " + amountMinor);
      }

      @Override
      public void ticketOpened(dev.clearway.core.reconciliation.domain.DifferenceClass kind) {
        events.add("ticket " + kind);
      }
    };
  }

  private StatementStore statementStore() {
    return new StatementStore() {
      @Override
      public StatementFileRecord importFile(Incoming incoming, LineSource lines) {
        throw new UnsupportedOperationException();
      }

      @Override
      public StatementFileRecord refuse(Incoming incoming, String reason) {
        throw new UnsupportedOperationException();
      }

      @Override
      public Optional<StatementFileRecord> find(long fileId) {
        return Optional.empty();
      }

      @Override
      public Optional<StatementFileRecord> current(String accountRef, LocalDate day) {
        Long id = current.get(day);
        return id == null
            ? Optional.empty()
            : Optional.of(
                new StatementFileRecord(
                    id,
                    accountRef,
                    day,
                    StatementFormat.values()[0],
                    "0",
                    null,
                    StatementFileRecord.Status.IMPORTED,
                    null,
                    files.get(id).size(),
                    null,
                    0,
                    Instant.EPOCH));
      }
    };
  }

  // ---- StatementFacts ------------------------------------------------------------------------

  @Override
  public Stream<StatementFact> lines(long fileId, String account) {
    return files.get(fileId).stream();
  }

  @Override
  public List<StatementFact> linesFor(String account, String tradeOrderNo, String attemptKey) {
    return files.values().stream()
        .flatMap(List::stream)
        .filter(
            l ->
                (tradeOrderNo != null && tradeOrderNo.equals(l.tradeOrderNo()))
                    || (attemptKey != null && attemptKey.equals(l.attemptKey())))
        .toList();
  }

  @Override
  public List<StatementFact> refundLinesFor(String account, String refundOrderNo) {
    return files.values().stream()
        .flatMap(List::stream)
        .filter(l -> l.kind() == StatementKind.REFUND && refundOrderNo.equals(l.refundOrderNo()))
        .toList();
  }

  @Override
  public boolean imported(String account, LocalDate day) {
    return current.containsKey(day);
  }

  @Override
  public OptionalLong groupedFees(long fileId) {
    Long total = feeTotals.get(fileId);
    return total == null ? OptionalLong.empty() : OptionalLong.of(total);
  }

  // ---- LocalDay, terms -----------------------------------------------------------------------

  @Override
  public Stream<LocalFact> movementsIn(String account, Instant from, Instant to) {
    if (failLocalDay != null) {
      throw failLocalDay;
    }
    return facts.all().stream()
        .filter(l -> !l.updatedAt().isBefore(from) && l.updatedAt().isBefore(to));
  }

  @Override
  public Optional<AccountTerms> terms(String account) {
    return Day.ACCOUNT.equals(account) ? Optional.of(Day.TERMS) : Optional.empty();
  }

  @Override
  public ZoneId statementZone(String account) {
    return ZoneOffset.UTC;
  }

  /** One run per account-day; a run held by another node is refused. */
  private final class Runs implements ReconRuns {

    @Override
    public Optional<ReconRun> start(
        String account, LocalDate day, Long fileId, String owner, Instant leaseUntil, Instant now) {
      if (heldBy != null) {
        return Optional.empty();
      }
      long id = runs.size() + 1;
      ReconRun run =
          new ReconRun(
              id,
              account,
              day,
              fileId,
              ReconRunStatus.RUNNING,
              owner,
              leaseUntil,
              ReconCounts.none(),
              null,
              now,
              null);
      runs.put(id, run);
      return Optional.of(run);
    }

    @Override
    public boolean renew(long runId, String owner, Instant leaseUntil) {
      return true;
    }

    @Override
    public boolean finish(long runId, String owner, ReconCounts counts, Instant now) {
      return end(runId, ReconRunStatus.DONE, counts, null, now);
    }

    @Override
    public boolean fail(long runId, String owner, String error, Instant now) {
      return end(runId, ReconRunStatus.FAILED, ReconCounts.none(), error, now);
    }

    private boolean end(long id, ReconRunStatus status, ReconCounts c, String error, Instant now) {
      ReconRun r = runs.get(id);
      runs.put(
          id,
          new ReconRun(
              id,
              r.account(),
              r.day(),
              r.fileId(),
              status,
              null,
              null,
              c,
              error,
              r.startedAt(),
              now));
      return true;
    }

    @Override
    public List<ReconRun> latestPerAccount() {
      return List.copyOf(runs.values());
    }

    @Override
    public Optional<ReconRun> find(long runId) {
      return Optional.ofNullable(runs.get(runId));
    }
  }

  // ---- DifferenceStore -----------------------------------------------------------------------

  static String identity(Difference d) {
    String refund =
        d.statement() != null && d.statement().refundOrderNo() != null
            ? d.statement().refundOrderNo()
            : d.local() != null && d.local().refund() != null ? d.local().refundOrderNo() : null;
    return d.kind() + ":" + (refund != null ? refund : d.tradeOrderNo());
  }

  @Override
  public Recorded record(Found f, Instant now) {
    Difference d = f.difference();
    String key = identity(d);
    RecordedDifference on = differences.get(key);
    if (on != null) {
      return new Recorded(on, false);
    }
    long id = differences.size() + 1;
    String refund =
        d.statement() != null && d.statement().refundOrderNo() != null
            ? d.statement().refundOrderNo()
            : d.local() != null && d.local().refund() != null ? d.local().refundOrderNo() : null;
    RecordedDifference rd =
        new RecordedDifference(
            id,
            Day.ACCOUNT,
            f.statementDay(),
            d.kind(),
            key,
            d.tradeOrderNo(),
            refund,
            d.local() == null ? null : d.local().flowId(),
            f.statementFileId(),
            f.statementLineNo(),
            d.statement() == null ? null : d.statement().amountMinor(),
            d.local() == null ? null : d.local().amountMinor(),
            d.statement() != null ? d.statement().currency() : d.local().currency(),
            f.confidence(),
            DifferenceState.OPEN,
            d.kind().repairKind(),
            d.detail(),
            d.actionableAt(),
            0,
            now,
            now);
    differences.put(key, rd);
    found.put(id, d);
    return new Recorded(rd, true);
  }

  RecordedDifference byKind(dev.clearway.core.reconciliation.domain.DifferenceClass kind) {
    return differences.values().stream()
        .filter(r -> r.kind() == kind)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " in " + differences.keySet()));
  }

  @Override
  public Optional<RecordedDifference> find(long id) {
    return differences.values().stream().filter(r -> r.id() == id).findFirst();
  }

  @Override
  public List<RecordedDifference> claimDue(String owner, Instant leaseUntil, Instant now, int n) {
    List<RecordedDifference> due = new ArrayList<>();
    for (Map.Entry<String, RecordedDifference> e : differences.entrySet()) {
      RecordedDifference r = e.getValue();
      boolean open =
          r.state() == DifferenceState.OPEN || r.state() == DifferenceState.AUTO_REPAIRING;
      if (open && !r.actionableAt().isAfter(now) && due.size() < n) {
        RecordedDifference claimed = with(r, r.state(), r.version() + 1, r.actionableAt());
        e.setValue(claimed);
        due.add(claimed);
      }
    }
    return due;
  }

  @Override
  public boolean move(Move m) {
    for (Map.Entry<String, RecordedDifference> e : differences.entrySet()) {
      RecordedDifference r = e.getValue();
      if (r.id() != m.id()) {
        continue;
      }
      if (r.state() != m.from() || r.version() != m.version()) {
        return false;
      }
      if (m.from() != m.next() && !m.from().canMoveTo(m.next())) {
        throw new IllegalArgumentException("illegal move " + m.from() + " -> " + m.next());
      }
      Instant at = m.actionableAt() != null ? m.actionableAt() : r.actionableAt();
      e.setValue(with(r, m.next(), r.version() + 1, at));
      history.add(r.kind() + " " + m.from() + "->" + m.next() + ": " + m.detail());
      return true;
    }
    return false;
  }

  private static RecordedDifference with(
      RecordedDifference r, DifferenceState state, long version, Instant actionableAt) {
    return new RecordedDifference(
        r.id(),
        r.account(),
        r.statementDay(),
        r.kind(),
        r.identity(),
        r.tradeOrderNo(),
        r.refundOrderNo(),
        r.flowId(),
        r.statementFileId(),
        r.statementLineNo(),
        r.statementAmountMinor(),
        r.localAmountMinor(),
        r.currency(),
        r.confidence(),
        state,
        r.repairKind(),
        r.detail(),
        actionableAt,
        version,
        r.createdAt(),
        r.updatedAt());
  }

  // ---- SettlementStore -----------------------------------------------------------------------

  @Override
  public void mark(Mark mark) {
    if (!Objects.equals(settlement.get(mark.tradeOrderNo()), mark.status())) {
      settlement.put(mark.tradeOrderNo(), mark.status());
      marks.add(mark);
    }
  }

  @Override
  public Optional<SettlementStatus> status(String tradeOrderNo) {
    return Optional.ofNullable(settlement.get(tradeOrderNo));
  }
}
