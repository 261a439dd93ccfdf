package dev.clearway.lab.bench;

import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementStore;
import java.time.LocalDate;
import java.util.Optional;

/**
 * A statement store that tells the bench how an import's time splits: the time spent in the store's
 * line sink (encoding and sending the lines) and everything else the store does count as {@code
 * copy}; the parser's time between two lines counts as {@code parse}.
 */
final class TimedStatementStore implements StatementStore {
  private final StatementStore store;
  private final ReconPhases phases;

  TimedStatementStore(StatementStore store, ReconPhases phases) {
    this.store = store;
    this.phases = phases;
  }

  @Override
  public StatementFileRecord importFile(Incoming incoming, LineSource lines) {
    long[] inSink = new long[1];
    long[] feeding = new long[1];
    long t0 = System.nanoTime();
    StatementFileRecord record =
        store.importFile(
            incoming,
            sink -> {
              long f0 = System.nanoTime();
              try {
                lines.feed(
                    line -> {
                      long s0 = System.nanoTime();
                      sink.accept(line);
                      inSink[0] += System.nanoTime() - s0;
                    });
              } finally {
                feeding[0] += System.nanoTime() - f0;
              }
            });
    long total = System.nanoTime() - t0;
    long parse = feeding[0] - inSink[0];
    phases.add(ReconPhases.PARSE, parse);
    phases.add(ReconPhases.COPY, total - parse);
    return record;
  }

  @Override
  public StatementFileRecord refuse(Incoming incoming, String reason) {
    return store.refuse(incoming, reason);
  }

  @Override
  public Optional<StatementFileRecord> find(long fileId) {
    return store.find(fileId);
  }

  @Override
  public Optional<StatementFileRecord> current(String accountRef, LocalDate day) {
    return store.current(accountRef, day);
  }
}
