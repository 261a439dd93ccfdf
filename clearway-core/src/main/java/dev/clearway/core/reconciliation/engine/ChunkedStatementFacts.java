package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.StatementFacts;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A file's lines handed out a chunk at a time: before the first line of a chunk is handed out, the
 * settlement marks of the previous chunk are written and the local rows and settlement statuses of
 * this chunk's lines are read ahead, each in one batch. When the lines end, the last marks are
 * written. So matching a statement costs a few round trips per chunk instead of several per line,
 * and memory holds one chunk.
 */
final class ChunkedStatementFacts extends StatementFactsDecorator {
  static final int CHUNK = 5_000;

  private final PrefetchedLocalFacts locals;
  private final BufferedSettlements settlements;

  ChunkedStatementFacts(
      StatementFacts store, PrefetchedLocalFacts locals, BufferedSettlements settlements) {
    super(store);
    this.locals = locals;
    this.settlements = settlements;
  }

  @Override
  public Stream<StatementFact> lines(long fileId, String account) {
    Stream<StatementFact> source = store.lines(fileId, account);
    Iterator<StatementFact> chunked = new Chunks(source.iterator());
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(chunked, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(source::close);
  }

  private final class Chunks implements Iterator<StatementFact> {
    private final Iterator<StatementFact> source;
    private final ArrayDeque<StatementFact> chunk = new ArrayDeque<>(CHUNK);
    private boolean ended;

    Chunks(Iterator<StatementFact> source) {
      this.source = source;
    }

    @Override
    public boolean hasNext() {
      if (!chunk.isEmpty()) {
        return true;
      }
      if (ended) {
        return false;
      }
      List<StatementFact> next = new ArrayList<>(CHUNK);
      while (next.size() < CHUNK && source.hasNext()) {
        next.add(source.next());
      }
      Set<String> trades = new LinkedHashSet<>();
      next.forEach(line -> addIfPresent(trades, line.tradeOrderNo()));
      settlements.load(trades);
      if (next.isEmpty()) {
        ended = true;
        return false;
      }
      locals.load(next);
      chunk.addAll(next);
      return true;
    }

    @Override
    public StatementFact next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return chunk.poll();
    }
  }

  private static void addIfPresent(Set<String> into, String value) {
    if (value != null) {
      into.add(value);
    }
  }
}
