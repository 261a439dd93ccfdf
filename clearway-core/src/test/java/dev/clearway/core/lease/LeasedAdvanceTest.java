package dev.clearway.core.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.runtime.Backoff;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The loop's own rules, on a table of rows held in memory: claims, the lease check, the limit. */
class LeasedAdvanceTest {
  private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
  private static final EngineConfig CONFIG = EngineConfig.production();

  /** A row: its id, how many steps it still needs, who holds it and until when. */
  record Row(long id, int stepsLeft, String owner, Instant until) {}

  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  private final Map<Long, Row> table = new HashMap<>();
  private final List<String> log = new ArrayList<>();
  private final AtomicInteger lost = new AtomicInteger();

  private final LeasedRows<Row> rows =
      new LeasedRows<>() {
        @Override
        public boolean claim(long id, Lease lease, Instant now) {
          Row r = table.get(id);
          if (r == null || r.stepsLeft() == 0 || (r.owner() != null && r.until().isAfter(now))) {
            return false;
          }
          table.put(id, new Row(id, r.stepsLeft(), lease.token(), lease.until()));
          return true;
        }

        @Override
        public Optional<Row> find(long id) {
          return Optional.ofNullable(table.get(id));
        }
      };

  private final LeasedAdvance.Machine<Row, String> machine =
      new LeasedAdvance.Machine<>() {
        @Override
        public long id(Row row) {
          return row.id();
        }

        @Override
        public boolean ended(Row row) {
          return row.stepsLeft() == 0;
        }

        @Override
        public String settle(Row row) {
          if (row == null) {
            return "NOT_FOUND";
          }
          return row.stepsLeft() == 0 ? "TERMINAL" : "BUSY";
        }

        @Override
        public String leaseOwner(Row row) {
          return row.owner();
        }

        @Override
        public LeasedAdvance.Step<Row, String> step(Row row, LeaseHold hold) {
          log.add("step " + row.stepsLeft() + " by " + hold.holder());
          Row next = new Row(row.id(), row.stepsLeft() - 1, row.owner(), row.until());
          table.put(row.id(), next);
          return LeasedAdvance.Step.next(next);
        }

        @Override
        public String stepLimit(Row row, LeaseHold hold) {
          return "LIMIT";
        }
      };

  private LeasedAdvance<Row, String> loop(int maxSteps) {
    return new LeasedAdvance<>(
        rows,
        machine,
        new LeaseTokens("t", clock, CONFIG),
        new Backoff(CONFIG),
        clock,
        maxSteps,
        lost::incrementAndGet);
  }

  @Test
  void claimsStepsUntilTheRowEndsAndStopsAtTheStepLimit() {
    table.put(1L, new Row(1, 2, null, null));
    assertThat(loop(8).advance(1, Trigger.unclaimed(TriggerSource.WAKEUP))).isEqualTo("TERMINAL");
    assertThat(log).hasSize(2);

    table.put(2L, new Row(2, 5, null, null));
    assertThat(loop(3).advance(2, Trigger.unclaimed(TriggerSource.WAKEUP))).isEqualTo("LIMIT");
    assertThat(table.get(2L).stepsLeft()).isEqualTo(2);
  }

  @Test
  void aRowHeldByAnotherLeaseIsNotSteppedWhateverTheTriggerCarries() {
    table.put(1L, new Row(1, 2, "other", NOW.plusSeconds(10)));
    assertThat(loop(8).advance(1, Trigger.unclaimed(TriggerSource.SCANNER))).isEqualTo("BUSY");
    Lease mine = new Lease("mine", NOW.plusSeconds(10));
    assertThat(loop(8).advance(1, Trigger.held(TriggerSource.SCANNER, mine))).isEqualTo("BUSY");
    Lease expired = new Lease("other", NOW);
    assertThat(loop(8).advance(1, Trigger.held(TriggerSource.SCANNER, expired))).isEqualTo("BUSY");
    assertThat(log).isEmpty();
    assertThat(loop(8).advance(9, Trigger.unclaimed(TriggerSource.SCANNER))).isEqualTo("NOT_FOUND");
  }

  @Test
  void aCreatedRowIsSteppedUnderItsCreationLeaseWithoutARead() {
    Row created = new Row(1, 1, "creator", NOW.plusSeconds(30));
    table.put(1L, created);
    Lease creation = new Lease("creator", NOW.plusSeconds(30));
    assertThat(loop(8).advanceCreated(created, Trigger.held(TriggerSource.SYNC, creation)))
        .isEqualTo("TERMINAL");
    assertThat(log).containsExactly("step 1 by creator");
    assertThatThrownBy(() -> loop(8).advanceCreated(created, Trigger.unclaimed(TriggerSource.SYNC)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aPageIsHeldOnlyUnderALiveLeaseAndOnlyItsOwnLiveRowsStep() {
    LeasedAdvance<Row, String> loop = loop(8);
    Lease page = new Lease("page", NOW.plusSeconds(10));
    assertThat(loop.hold(Trigger.unclaimed(TriggerSource.SCANNER))).isEmpty();
    assertThat(loop.hold(Trigger.held(TriggerSource.SCANNER, new Lease("page", NOW)))).isEmpty();
    LeaseHold hold = loop.hold(Trigger.held(TriggerSource.SCANNER, page)).orElseThrow();
    assertThat(hold.holder()).isEqualTo("page");
    assertThat(hold.startedAt()).isEqualTo(NOW.toEpochMilli());

    assertThat(loop.holds(new Row(1, 2, "page", page.until()), hold)).isTrue();
    assertThat(loop.holds(new Row(2, 2, "other", page.until()), hold)).isFalse();
    assertThat(loop.holds(new Row(3, 0, "page", page.until()), hold)).as("ended").isFalse();
    assertThat(loop.holds(null, hold)).isFalse();
    assertThat(log).isEmpty();
  }

  @Test
  void aRefusedRescheduleCountsALostLeaseAndAnAcceptedOneIsDueAfterBackoff() {
    LeasedAdvance<Row, String> loop = loop(8);
    assertThat(loop.reschedule(7, 3, false, (due, now) -> false)).isEmpty();
    assertThat(lost).hasValue(1);
    assertThat(loop.reschedule(7, 3, false, (due, now) -> true))
        .contains(new Backoff(CONFIG).next(7, 3, false, NOW));
    assertThat(loop.reschedule(7, 3, true, (due, now) -> true))
        .contains(NOW.plus(CONFIG.escalatedInterval()));
    assertThat(lost).hasValue(1);
  }
}
