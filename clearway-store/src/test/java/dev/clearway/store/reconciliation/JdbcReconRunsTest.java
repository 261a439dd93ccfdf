package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.DAY;
import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.reconciliation.domain.ReconRunStatus;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcReconRunsTest {
  private static final Instant LEASE = T0.plusSeconds(60);

  private final ReconFixture fx = new ReconFixture();
  private final JdbcReconRuns runs = new JdbcReconRuns(fx.ds, fx.dialect);

  @BeforeEach
  void reset() {
    fx.reset();
  }

  @Test
  void oneRunningRunPerAccountDayWhileItsLeaseLives() {
    ReconRun run = runs.start("acct_1", DAY, 5L, "node-a", LEASE, T0).orElseThrow();
    assertThat(run.status()).isEqualTo(ReconRunStatus.RUNNING);
    assertThat(run.fileId()).isEqualTo(5L);
    assertThat(run.leaseOwner()).isEqualTo("node-a");
    assertThat(run.counts()).isEqualTo(ReconCounts.none());

    assertThat(runs.start("acct_1", DAY, 5L, "node-b", LEASE, T0.plusSeconds(59))).isEmpty();
    assertThat(runs.start("acct_1", DAY.plusDays(1), null, "node-b", LEASE, T0)).isPresent();
    assertThat(runs.start("acct_2", DAY, null, "node-b", LEASE, T0)).isPresent();
    assertThat(fx.queryLong("SELECT count(*) FROM recon_run")).isEqualTo(3);
    assertThatThrownBy(
            () ->
                fx.exec(
                    "INSERT INTO recon_run (account_ref, statement_day, status, started_at)"
                        + " VALUES ('acct_1', DATE '2026-12-01', 'RUNNING', now())"))
        .hasMessageContaining("uk_recon_run_running");
  }

  @Test
  void concurrentStartsLeaveOneOwner() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Callable<Optional<ReconRun>>> starts =
          IntStream.range(0, 6)
              .<Callable<Optional<ReconRun>>>mapToObj(
                  i -> () -> runs.start("acct_1", DAY, null, "node-" + i, LEASE, T0))
              .toList();
      long won = 0;
      for (Future<Optional<ReconRun>> f : pool.invokeAll(starts)) {
        won += f.get().isPresent() ? 1 : 0;
      }
      assertThat(won).isEqualTo(1);
      assertThat(fx.queryLong("SELECT count(*) FROM recon_run")).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anExpiredLeaseIsTakenOverAndTheOldOwnerCanNoLongerWrite() {
    ReconRun first = runs.start("acct_1", DAY, null, "node-a", LEASE, T0).orElseThrow();
    Instant later = LEASE.plusSeconds(1);

    ReconRun taken =
        runs.start("acct_1", DAY, 8L, "node-b", later.plusSeconds(60), later).orElseThrow();
    assertThat(taken.id()).isEqualTo(first.id());
    assertThat(taken.leaseOwner()).isEqualTo("node-b");
    assertThat(taken.fileId()).isEqualTo(8L);
    assertThat(taken.startedAt()).isEqualTo(first.startedAt());

    ReconCounts counts = new ReconCounts(10, 3, 2, 1, 1);
    assertThat(runs.renew(first.id(), "node-a", later.plusSeconds(600))).isFalse();
    assertThat(runs.finish(first.id(), "node-a", counts, later)).isFalse();
    assertThat(runs.fail(first.id(), "node-a", "boom", later)).isFalse();
    assertThat(runs.renew(first.id(), "node-b", later.plusSeconds(120))).isTrue();
    assertThat(runs.finish(first.id(), "node-b", counts, later.plusSeconds(5))).isTrue();

    ReconRun done = runs.find(first.id()).orElseThrow();
    assertThat(done.status()).isEqualTo(ReconRunStatus.DONE);
    assertThat(done.counts()).isEqualTo(counts);
    assertThat(done.finishedAt()).isEqualTo(later.plusSeconds(5));
    assertThat(runs.fail(first.id(), "node-b", "late", later.plusSeconds(6))).isFalse();
    assertThatThrownBy(() -> fx.exec("UPDATE recon_run SET error = 'x', version = version + 1"))
        .hasMessageContaining("final");

    ReconRun next =
        runs.start("acct_1", DAY, 9L, "node-c", later.plusSeconds(60), later).orElseThrow();
    assertThat(next.id()).isNotEqualTo(first.id());
    assertThat(runs.fail(next.id(), "node-c", "statement missing", later)).isTrue();
    assertThat(runs.find(next.id()).orElseThrow().error()).isEqualTo("statement missing");
  }

  @Test
  void theLatestRunOfEachAccountNewestFirst() {
    ReconRun a1 = runs.start("acct_1", DAY, null, "n", LEASE, T0).orElseThrow();
    runs.finish(a1.id(), "n", ReconCounts.none(), T0);
    ReconRun b1 = runs.start("acct_2", DAY, null, "n", LEASE, T0).orElseThrow();
    ReconRun a2 = runs.start("acct_1", DAY.plusDays(1), null, "n", LEASE, T0).orElseThrow();

    assertThat(runs.latestPerAccount()).extracting(ReconRun::id).containsExactly(a2.id(), b1.id());
  }
}
