package dev.clearway.store.channel;

import static dev.clearway.store.channel.ChannelStoreFixture.T0;
import static dev.clearway.store.channel.ChannelStoreFixture.evidence;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.port.AttemptStore.AttemptChange;
import dev.clearway.core.channel.port.AttemptStore.RecordResult;
import dev.clearway.core.channel.port.AttemptStore.TaskChange;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Recovery tasks on the real database: claims, and times that come from the engine's clock. */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcRecoveryTaskStoreTest {

  private final ChannelStoreFixture db = new ChannelStoreFixture();
  private final RecoveryTaskStore store = db.stores.tasks();

  @BeforeEach
  void clean() {
    db.clean();
  }

  private Attempt newAttempt(String trade) {
    return db.newAttempt(trade);
  }

  @Test
  void concurrentClaimsNeverShareATask() throws Exception {
    for (int i = 0; i < 40; i++) {
      newAttempt("t_claim_" + i);
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<List<RecoveryTask>>> claims = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      String owner = "w" + w;
      Callable<List<RecoveryTask>> claim =
          () -> store.claimDue(owner, 15, Duration.ofSeconds(30), T0.plusSeconds(60));
      claims.add(pool.submit(claim));
    }
    Set<Long> seen = new HashSet<>();
    int total = 0;
    for (Future<List<RecoveryTask>> f : claims) {
      for (RecoveryTask t : f.get()) {
        assertThat(seen.add(t.id())).as("task %d claimed twice", t.id()).isTrue();
        total++;
      }
    }
    pool.shutdown();
    assertThat(total).isEqualTo(40);
  }

  /**
   * The engine's clock, not the database's, decides when a task is due again and when it was
   * changed: a clock fixed far from the database's time shows which one was used.
   */
  @Test
  void theEngineClockDecidesTheNextAttemptTimeOnAReschedule() {
    Clock engine = Clock.fixed(Instant.parse("2031-06-15T08:00:00Z"), ZoneOffset.UTC);
    Attempt a = newAttempt("t_clock");
    // The creating call answered UNKNOWN: the task is READY, due at once on the engine's clock.
    assertThat(
            db.stores
                .attempts()
                .record(
                    new AttemptChange(
                        a,
                        AttemptStatus.UNKNOWN,
                        evidence(ResultCertainty.UNKNOWN),
                        new TaskChange.Reschedule(engine.instant(), "RETRIEVE", "timeout"),
                        false,
                        null,
                        ChannelStoreFixture.CREATOR),
                    T0))
        .isEqualTo(RecordResult.RECORDED);
    RecoveryTask claimed =
        store.claimDue("w1/0/1", 10, Duration.ofSeconds(30), engine.instant()).get(0);

    Instant next = engine.instant().plusSeconds(20);
    assertThat(store.rescheduleTask(claimed, next, "RETRIEVE", "WAITING_WEBHOOK", engine.instant()))
        .isTrue();

    assertThat(db.text("SELECT status FROM recovery_task")).isEqualTo("READY");
    assertThat(db.instant("SELECT due_at FROM recovery_task"))
        .isEqualTo(Instant.parse("2031-06-15T08:00:20Z"));
    assertThat(db.instant("SELECT updated_at FROM recovery_task"))
        .isEqualTo(Instant.parse("2031-06-15T08:00:00Z"));
    // Not due before the engine's clock reaches the new time, whatever the database's now() is.
    assertThat(store.claimDue("w2/0/1", 10, Duration.ofSeconds(30), next.minusMillis(1))).isEmpty();
    assertThat(store.claimDue("w2/0/1", 10, Duration.ofSeconds(30), next)).hasSize(1);
  }

  /**
   * A wake-up claims the task of its own attempt, and only when a claim round would: not while its
   * creator holds it, not twice, not before it is due again.
   */
  @Test
  void aWakeupClaimsOnlyItsOwnTaskAndOnlyWhenARoundWould() {
    Attempt a = newAttempt("t_wake_a");
    Attempt b = newAttempt("t_wake_b");
    Duration lease = Duration.ofSeconds(30);
    assertThat(store.claimTask(a.id(), "w1/0/1", lease, T0)).as("held by its creator").isEmpty();

    Instant later = T0.plusSeconds(60);
    RecoveryTask claimed = store.claimTask(a.id(), "w1/0/1", lease, later).orElseThrow();

    assertThat(claimed.attemptId()).isEqualTo(a.id());
    assertThat(claimed.leaseOwner()).isEqualTo("w1/0/1");
    assertThat(claimed.leaseUntil()).isEqualTo(later.plus(lease));
    assertThat(claimed.attemptCount()).isEqualTo(1);
    assertThat(store.claimTask(a.id(), "w2/0/1", lease, later)).as("duplicated").isEmpty();
    assertThat(store.claimDue("w3/0/1", 10, lease, later))
        .extracting(RecoveryTask::attemptId)
        .containsExactly(b.id());

    Instant next = later.plusSeconds(20);
    assertThat(store.rescheduleTask(claimed, next, "RETRIEVE", "WAITING_WEBHOOK", later)).isTrue();
    assertThat(store.claimTask(a.id(), "w4/0/1", lease, next.minusMillis(1))).as("early").isEmpty();
    assertThat(store.claimTask(a.id(), "w4/0/1", lease, next)).isPresent();
  }
}
