package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.port.SettlementStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settlement marks of one run, written a chunk of lines at a time with {@link
 * SettlementStore#markAll}, and the statuses of the chunk's trade orders read ahead in one query. A
 * status asked for answers the mark still pending first, then what was read ahead, then the store;
 * a second mark of a trade order already pending writes the pending ones first, so marks reach the
 * store in line order. {@link #flush()} must run when the lines end.
 */
final class BufferedSettlements implements SettlementStore {
  private final SettlementStore store;
  private final Map<String, Mark> pending = new LinkedHashMap<>();
  private final Map<String, Optional<SettlementStatus>> ahead = new HashMap<>();

  BufferedSettlements(SettlementStore store) {
    this.store = store;
  }

  /** Writes the pending marks, then reads ahead the statuses of the next chunk's trade orders. */
  void load(Collection<String> tradeOrderNos) {
    flush();
    ahead.clear();
    Map<String, SettlementStatus> read =
        tradeOrderNos.isEmpty() ? Map.of() : store.statuses(tradeOrderNos);
    tradeOrderNos.forEach(t -> ahead.put(t, Optional.ofNullable(read.get(t))));
  }

  /** Writes the pending marks in one batch. */
  void flush() {
    if (pending.isEmpty()) {
      return;
    }
    List<Mark> marks = new ArrayList<>(pending.values());
    store.markAll(marks);
    pending.clear();
    marks.forEach(m -> ahead.computeIfPresent(m.tradeOrderNo(), (t, s) -> Optional.of(m.status())));
  }

  @Override
  public void mark(Mark mark) {
    if (pending.containsKey(mark.tradeOrderNo())) {
      flush();
    }
    pending.put(mark.tradeOrderNo(), mark);
  }

  @Override
  public void markAll(List<Mark> marks) {
    marks.forEach(this::mark);
  }

  @Override
  public Optional<SettlementStatus> status(String tradeOrderNo) {
    Mark mark = pending.get(tradeOrderNo);
    if (mark != null) {
      return Optional.of(mark.status());
    }
    Optional<SettlementStatus> read = ahead.get(tradeOrderNo);
    return read != null ? read : store.status(tradeOrderNo);
  }
}
