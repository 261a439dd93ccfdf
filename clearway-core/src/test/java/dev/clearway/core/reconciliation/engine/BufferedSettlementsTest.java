package dev.clearway.core.reconciliation.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.port.SettlementStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BufferedSettlementsTest {
  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

  /** Keeps the statuses and each batch it was given, and counts single reads. */
  private static final class Recording implements SettlementStore {
    final Map<String, SettlementStatus> statuses = new HashMap<>();
    final List<List<String>> batches = new ArrayList<>();
    int singleReads;
    int batchReads;

    @Override
    public void mark(Mark mark) {
      statuses.put(mark.tradeOrderNo(), mark.status());
    }

    @Override
    public void markAll(List<Mark> marks) {
      batches.add(marks.stream().map(m -> m.tradeOrderNo() + ">" + m.status()).toList());
      marks.forEach(this::mark);
    }

    @Override
    public Optional<SettlementStatus> status(String tradeOrderNo) {
      singleReads++;
      return Optional.ofNullable(statuses.get(tradeOrderNo));
    }

    @Override
    public Map<String, SettlementStatus> statuses(Collection<String> tradeOrderNos) {
      batchReads++;
      Map<String, SettlementStatus> found = new HashMap<>();
      tradeOrderNos.forEach(
          t -> Optional.ofNullable(statuses.get(t)).ifPresent(s -> found.put(t, s)));
      return found;
    }
  }

  private static SettlementStore.Mark mark(String trade, SettlementStatus status) {
    return new SettlementStore.Mark(trade, status, null, 1L, null, T0);
  }

  @Test
  void marksAreWrittenAChunkAtATimeInLineOrderAndStatusesAnswerThePendingMarkFirst() {
    Recording store = new Recording();
    store.statuses.put("T9", SettlementStatus.MISMATCH);
    BufferedSettlements buffered = new BufferedSettlements(store);

    buffered.load(List.of("T1", "T2", "T9"));
    buffered.mark(mark("T1", SettlementStatus.SETTLED));
    buffered.mark(mark("T2", SettlementStatus.SETTLED));
    assertThat(buffered.status("T1")).contains(SettlementStatus.SETTLED);
    assertThat(buffered.status("T9")).contains(SettlementStatus.MISMATCH);
    assertThat(buffered.status("T3")).isEmpty();
    assertThat(store.batches).isEmpty();
    // The chunk's statuses were read in one batch; only T3, not read ahead, was read alone.
    assertThat(store.batchReads).isEqualTo(1);
    assertThat(store.singleReads).isEqualTo(1);

    // A second mark of a pending trade order writes the pending ones first.
    buffered.mark(mark("T1", SettlementStatus.MISMATCH));
    assertThat(store.batches).containsExactly(List.of("T1>SETTLED", "T2>SETTLED"));
    assertThat(buffered.status("T1")).contains(SettlementStatus.MISMATCH);

    buffered.load(List.of());
    assertThat(store.batches)
        .containsExactly(List.of("T1>SETTLED", "T2>SETTLED"), List.of("T1>MISMATCH"));
    assertThat(store.statuses)
        .containsEntry("T1", SettlementStatus.MISMATCH)
        .containsEntry("T2", SettlementStatus.SETTLED);
  }
}
