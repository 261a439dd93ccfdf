package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.LEASE;
import static dev.clearway.store.StoreFixtures.count;
import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.exec;
import static dev.clearway.store.StoreFixtures.insertRaw;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.leaseOwner;
import static dev.clearway.store.StoreFixtures.newGoal;
import static dev.clearway.store.StoreFixtures.now;
import static dev.clearway.store.StoreFixtures.race;
import static dev.clearway.store.StoreFixtures.reload;
import static dev.clearway.store.StoreFixtures.store;
import static dev.clearway.store.StoreFixtures.walk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.RescheduleWrite;
import dev.clearway.store.testing.FlowRowInsert;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Leases: claim of one flow and claimDue of a page. */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcFlowStoreClaimTest {

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  // ---- claim -------------------------------------------------------------------------------

  @Test
  void aLeasedRowCannotBeClaimedUntilItsLeaseExpires() {
    Instant now = now();
    PayFlow f = created(now); // held by "creator" until now + 30 s

    assertThat(store().claim(f.id(), lease("other/1", now), now)).isFalse();
    Instant justBefore = now.plus(LEASE).minusMillis(1);
    assertThat(store().claim(f.id(), lease("other/2", justBefore), justBefore)).isFalse();
    assertThat(reload(f)).isEqualTo(f);

    Instant expired = now.plus(LEASE).plusSeconds(1);
    Lease taken = lease("other/3", expired);
    assertThat(store().claim(f.id(), taken, expired)).isTrue();

    PayFlow claimed = reload(f);
    assertThat(claimed.leaseOwner()).isEqualTo("other/3");
    assertThat(claimed.nextRetryTime()).isEqualTo(taken.until());
    assertThat(claimed.status()).isEqualTo(f.status());
    assertThat(claimed.version()).isEqualTo(f.version());

    // and now the new holder excludes the old one
    assertThat(store().claim(f.id(), lease("creator", expired), expired)).isFalse();
  }

  @Test
  void aLeaseIsClaimableExactlyWhenItExpires() {
    Instant now = now();
    PayFlow f = created(now);
    Instant at = now.plus(LEASE);
    assertThat(store().claim(f.id(), lease("other", at), at)).isTrue();
  }

  @Test
  void aFrozenRowCannotBeClaimed() {
    Instant now = now();
    PayFlow f = created(now);
    assertThat(store().freeze(f.id(), f.leaseOwner(), "BIZ_DONE_WITHOUT_ATTRIBUTION", now))
        .isTrue();

    PayFlow frozen = reload(f);
    assertThat(frozen.reviewState()).isEqualTo(ReviewState.FROZEN);
    assertThat(frozen.reviewReason()).isEqualTo("BIZ_DONE_WITHOUT_ATTRIBUTION");
    assertThat(frozen.leaseOwner()).isNull();

    Instant muchLater = now.plus(Duration.ofDays(1));
    assertThat(store().claim(f.id(), lease("other", muchLater), muchLater)).isFalse();
    assertThat(reload(f)).isEqualTo(frozen);
  }

  @Test
  void freezeTruncatesALongReasonToTheColumn() {
    PayFlow f = created(now());
    store().freeze(f.id(), f.leaseOwner(), "X".repeat(400), now());
    assertThat(reload(f).reviewReason()).hasSize(160);
  }

  @ParameterizedTest(name = "a {0} row cannot be claimed")
  @EnumSource(
      value = FlowStatus.class,
      names = {"PAY_FAIL", "BIZ_SUCCESS", "REFUNDED", "CLOSED"})
  void aTerminalRowCannotBeClaimed(FlowStatus terminal) throws Exception {
    Instant now = now();
    long id = insertRaw(newGoal(), 1, terminal, now.minusSeconds(60));
    assertThat(store().claim(id, lease("any", now), now)).isFalse();
    assertThat(leaseOwner(id)).isNull();
  }

  @Test
  void anUnleasedRowIsClaimableEvenBeforeItsRetryTime() {
    Instant now = now();
    PayFlow f = created(now);
    assertThat(
            store()
                .reschedule(
                    new RescheduleWrite(
                        f,
                        1,
                        now.plusSeconds(600),
                        "PAY_UNKNOWN",
                        ReviewState.NONE,
                        null,
                        now,
                        f.leaseOwner())))
        .isTrue();

    assertThat(store().claim(f.id(), lease("callback", now), now)).isTrue();
    assertThat(reload(f).leaseOwner()).isEqualTo("callback");
  }

  @Test
  void ofConcurrentClaimsOfOneExpiredRowExactlyOneWins() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 10; round++) {
        Instant now = now();
        PayFlow f = created(now);
        Instant expired = now.plus(LEASE).plusSeconds(1);

        List<Boolean> won =
            race(pool, threads, i -> store().claim(f.id(), lease("w" + i, expired), expired));

        assertThat(won).filteredOn(Boolean::booleanValue).hasSize(1);
        int winner = won.indexOf(Boolean.TRUE);
        assertThat(reload(f).leaseOwner()).isEqualTo("w" + winner);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- claimDue ----------------------------------------------------------------------------

  @Test
  void claimDueReturnsOnlyDueNonTerminalUnfrozenRowsInIdOrder() throws Exception {
    Instant now = now();
    Instant past = now.minusSeconds(10);
    List<Long> due = new ArrayList<>();
    due.add(insertRaw(newGoal(), 1, FlowStatus.WAIT_PAY, past));
    long notDue = insertRaw(newGoal(), 1, FlowStatus.PAYING, now.plusSeconds(10));
    due.add(insertRaw(newGoal(), 1, FlowStatus.PAYING, past));
    long payFail = insertRaw(newGoal(), 1, FlowStatus.PAY_FAIL, past);
    due.add(insertRaw(newGoal(), 1, FlowStatus.PAYED, now)); // exactly due
    long bizSuccess = insertRaw(newGoal(), 1, FlowStatus.BIZ_SUCCESS, past);
    due.add(insertRaw(newGoal(), 1, FlowStatus.REFUNDING, past));
    long refunded = insertRaw(newGoal(), 1, FlowStatus.REFUNDED, past);
    long closed = insertRaw(newGoal(), 1, FlowStatus.CLOSED, past);
    long frozen = insertRaw(newGoal(), 1, FlowStatus.PAYED, past);
    assertThat(store().claim(frozen, lease("freezer", now), now)).isTrue();
    assertThat(store().freeze(frozen, "freezer", "CAS_CONTRADICTION", now)).isTrue();
    long escalated = insertRaw(newGoal(), 1, FlowStatus.REFUNDING, past);
    exec("UPDATE pay_flow_state SET review_state = 'ESCALATED' WHERE id = ?", escalated);
    due.add(escalated); // escalated rows are still retried, at a lower frequency

    Lease lease = lease("scanner/1", now);
    List<Long> claimed = store().claimDue(0, 100, lease, now);

    assertThat(claimed).containsExactlyElementsOf(due.stream().sorted().toList());
    for (long id : claimed) {
      PayFlow f = store().find(id).orElseThrow();
      assertThat(f.leaseOwner()).isEqualTo("scanner/1");
      assertThat(f.nextRetryTime()).isEqualTo(lease.until());
    }
    for (long id : new long[] {notDue, payFail, bizSuccess, refunded, closed, frozen}) {
      assertThat(leaseOwner(id)).as("row %d", id).isNull();
    }

    // all claimed rows are leased now: the next round finds nothing
    assertThat(store().claimDue(0, 100, lease("scanner/2", now), now)).isEmpty();
    // until their leases expire; by then the row that was not yet due has become due too
    Instant expired = lease.until();
    List<Long> dueLater = new ArrayList<>(claimed);
    dueLater.add(notDue);
    assertThat(store().claimDue(0, 100, lease("scanner/3", expired), expired))
        .containsExactlyElementsOf(dueLater.stream().sorted().toList());
  }

  @Test
  void claimDueRowsReturnsEachClaimedRowAsTheClaimWroteIt() throws Exception {
    Instant now = now();
    Instant past = now.minusSeconds(10);
    long paying = insertRaw(newGoal(), 1, FlowStatus.PAYING, past);
    long notDue = insertRaw(newGoal(), 1, FlowStatus.PAYING, now.plusSeconds(10));
    long payed = insertRaw(newGoal(), 1, FlowStatus.PAYED, past);
    long done = insertRaw(newGoal(), 1, FlowStatus.BIZ_SUCCESS, past);

    Lease lease = lease("scanner/rows", now);
    List<PayFlow> rows = store().claimDueRows(0, 100, lease, now);

    assertThat(rows).extracting(PayFlow::id).containsExactly(paying, payed);
    for (PayFlow row : rows) {
      assertThat(row.leaseOwner()).isEqualTo("scanner/rows");
      assertThat(row.nextRetryTime()).isEqualTo(lease.until());
      assertThat(row).isEqualTo(store().find(row.id()).orElseThrow());
    }
    assertThat(leaseOwner(notDue)).isNull();
    assertThat(leaseOwner(done)).isNull();
    assertThat(store().claimDueRows(0, 100, lease("scanner/2", now), now)).isEmpty();
  }

  @Test
  void claimDueSkipsARowLeasedByTheCreator() {
    Instant now = now();
    PayFlow f = created(now);
    assertThat(store().claimDue(0, 100, lease("scanner", now), now)).isEmpty();
    Instant expired = now.plus(LEASE);
    assertThat(store().claimDue(0, 100, lease("scanner", expired), expired))
        .containsExactly(f.id());
  }

  @Test
  void claimDuePagesByIdWithTheAfterIdCursor() throws Exception {
    Instant now = now();
    Instant past = now.minusSeconds(1);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ids.add(insertRaw(newGoal(), 1, FlowStatus.PAYING, past));
    }

    List<Long> page1 = store().claimDue(0, 4, lease("s/1", now), now);
    assertThat(page1).containsExactlyElementsOf(ids.subList(0, 4));
    List<Long> page2 = store().claimDue(page1.get(3), 4, lease("s/2", now), now);
    assertThat(page2).containsExactlyElementsOf(ids.subList(4, 8));
    List<Long> page3 = store().claimDue(page2.get(3), 4, lease("s/3", now), now);
    assertThat(page3).containsExactlyElementsOf(ids.subList(8, 10));
    assertThat(store().claimDue(page3.get(1), 4, lease("s/4", now), now)).isEmpty();
  }

  @Test
  void theCursorIsExclusiveAndSkipsOnlyLowerIds() throws Exception {
    Instant now = now();
    Instant past = now.minusSeconds(1);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      ids.add(insertRaw(newGoal(), 1, FlowStatus.PAYED, past));
    }
    assertThat(store().claimDue(ids.get(2), 100, lease("s", now), now))
        .containsExactlyElementsOf(ids.subList(3, 6));
    // the skipped lower ids are still due for a round that starts from 0
    assertThat(store().claimDue(0, 100, lease("s2", now), now))
        .containsExactlyElementsOf(ids.subList(0, 3));
  }

  @Test
  void twoConcurrentScannersNeverClaimTheSameRow() throws Exception {
    Instant past = now().minusSeconds(5);
    String[] open = {"WAIT_PAY", "PAYING", "PAYED", "REFUNDING"};
    for (int g = 1; g <= 500; g++) {
      FlowRowInsert.of("K:" + g, 1, open[g % 4], past)
          .owner("default", 50000 + g, "scan")
          .money(100, "CNY")
          .insert(TestDatabase.get().dataSource());
    }
    Set<Long> all = new HashSet<>();
    for (PayFlow f : allRows()) {
      all.add(f.id());
    }
    assertThat(all).hasSize(500);

    int scanners = 2;
    ExecutorService pool = Executors.newFixedThreadPool(scanners);
    AtomicInteger tokens = new AtomicInteger();
    try {
      // each scanner runs rounds from id 0 like Scanner.runRound, small pages to interleave
      List<List<Long>> claims =
          race(
              pool,
              scanners,
              i -> {
                List<Long> mine = new ArrayList<>();
                while (true) {
                  int before = mine.size();
                  long cursor = 0;
                  while (true) {
                    Instant now = now();
                    Lease lease = lease("scanner-" + i + "/" + tokens.incrementAndGet(), now);
                    List<Long> page = store().claimDue(cursor, 7, lease, now);
                    mine.addAll(page);
                    if (page.size() < 7) {
                      break;
                    }
                    cursor = page.get(page.size() - 1);
                  }
                  if (mine.size() == before) {
                    return mine;
                  }
                }
              });

      List<Long> a = claims.get(0);
      List<Long> b = claims.get(1);
      assertThat(a).doesNotHaveDuplicates();
      assertThat(b).doesNotHaveDuplicates();
      assertThat(a).doesNotContainAnyElementsOf(b);
      Set<Long> union = new HashSet<>(a);
      union.addAll(b);
      assertThat(union).hasSize(500).isEqualTo(all);
      assertThat(a.size() + b.size()).isEqualTo(500);
      // each row is held by the scanner that reported it, not overwritten by the other
      for (long id : a) {
        assertThat(leaseOwner(id)).startsWith("scanner-0/");
      }
      for (long id : b) {
        assertThat(leaseOwner(id)).startsWith("scanner-1/");
      }
      assertThat(count("SELECT count(*) FROM pay_flow WHERE lease_owner IS NULL")).isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<PayFlow> allRows() throws Exception {
    List<PayFlow> rows = new ArrayList<>();
    long max = count("SELECT coalesce(max(id), 0) FROM pay_flow");
    for (long id = 1; id <= max; id++) {
      store().find(id).ifPresent(rows::add);
    }
    return rows;
  }

  // ---- reschedule --------------------------------------------------------------------------

  @Test
  void rescheduleReleasesTheLeaseAndKeepsStatusAndVersion() throws Exception {
    Instant now = now();
    PayFlow paying = walk(created(now), now, FlowStatus.PAYING);
    assertThat(paying.leaseOwner()).isNotNull();
    long history = StoreFixtures.historyCount();

    Instant later = now.plusSeconds(2);
    Instant next = later.plusSeconds(17);
    boolean ok =
        store()
            .reschedule(
                new RescheduleWrite(
                    paying,
                    3,
                    next,
                    "READ_TIMEOUT",
                    ReviewState.NONE,
                    null,
                    later,
                    paying.leaseOwner()));

    assertThat(ok).isTrue();
    PayFlow r = reload(paying);
    assertThat(r.leaseOwner()).isNull();
    assertThat(r.status()).isEqualTo(FlowStatus.PAYING);
    assertThat(r.version()).isEqualTo(paying.version());
    assertThat(r.retryCount()).isEqualTo(3);
    assertThat(r.nextRetryTime()).isEqualTo(next);
    assertThat(r.lastErrorCode()).isEqualTo("READ_TIMEOUT");
    assertThat(r.reviewState()).isEqualTo(ReviewState.NONE);
    // updated_at marks when the flow entered PAYING: a reschedule does not move it.
    assertThat(r.updatedAt()).isEqualTo(paying.updatedAt());
    assertThat(StoreFixtures.historyCount()).isEqualTo(history);

    // unleased and not yet due: the scanner leaves it alone until next_retry_time
    assertThat(store().claimDue(0, 10, lease("s", later), later)).isEmpty();
    assertThat(store().claimDue(0, 10, lease("s", next), next)).containsExactly(paying.id());
  }

  @Test
  void rescheduleWritesTheEscalation() {
    Instant now = now();
    PayFlow payed = walk(created(now), now, FlowStatus.PAYING, FlowStatus.PAYED);

    assertThat(
            store()
                .reschedule(
                    new RescheduleWrite(
                        payed,
                        13,
                        now.plusSeconds(1800),
                        "BIZ_FACT_UNREADABLE",
                        ReviewState.ESCALATED,
                        "RETRY_BUDGET_SPENT:BIZ_FACT_UNREADABLE",
                        now,
                        payed.leaseOwner())))
        .isTrue();

    PayFlow r = reload(payed);
    assertThat(r.reviewState()).isEqualTo(ReviewState.ESCALATED);
    assertThat(r.reviewReason()).isEqualTo("RETRY_BUDGET_SPENT:BIZ_FACT_UNREADABLE");
    assertThat(r.status()).isEqualTo(FlowStatus.PAYED);
  }

  @Test
  void rescheduleFailsOnAStaleVersion() {
    Instant now = now();
    PayFlow waitPay = created(now);
    PayFlow paying = walk(waitPay, now, FlowStatus.PAYING);
    // same status, other version
    PayFlow stale =
        new PayFlow(
            paying.id(),
            paying.goal(),
            paying.attemptNo(),
            paying.tradeOrderNo(),
            paying.refundOrderNo(),
            paying.status(),
            paying.version() - 1,
            paying.amount(),
            paying.currency(),
            paying.bizDeadline(),
            paying.nextRetryTime(),
            paying.retryCount(),
            paying.lastErrorCode(),
            paying.reviewState(),
            paying.reviewReason(),
            paying.leaseOwner(),
            paying.createdAt(),
            paying.updatedAt());

    assertThat(
            store()
                .reschedule(
                    new RescheduleWrite(
                        stale,
                        1,
                        now.plusSeconds(5),
                        "X",
                        ReviewState.NONE,
                        null,
                        now,
                        stale.leaseOwner())))
        .isFalse();
    // the old snapshot (status and version stale)
    assertThat(
            store()
                .reschedule(
                    new RescheduleWrite(
                        waitPay,
                        1,
                        now.plusSeconds(5),
                        "X",
                        ReviewState.NONE,
                        null,
                        now,
                        paying.leaseOwner())))
        .isFalse();

    PayFlow r = reload(paying);
    assertThat(r).isEqualTo(paying);
    assertThat(r.leaseOwner()).isEqualTo(paying.leaseOwner()).isNotNull();
  }

  @Test
  void rescheduleFailsOnAFrozenRow() {
    Instant now = now();
    PayFlow paying = walk(created(now), now, FlowStatus.PAYING);
    store().freeze(paying.id(), paying.leaseOwner(), "CAS_CONTRADICTION", now);
    PayFlow frozen = reload(paying);

    assertThat(
            store()
                .reschedule(
                    new RescheduleWrite(
                        paying,
                        1,
                        now.plusSeconds(5),
                        "X",
                        ReviewState.NONE,
                        null,
                        now,
                        paying.leaseOwner())))
        .isFalse();
    assertThat(reload(paying)).isEqualTo(frozen);
    assertThat(frozen.reviewState()).isEqualTo(ReviewState.FROZEN);
  }
}
