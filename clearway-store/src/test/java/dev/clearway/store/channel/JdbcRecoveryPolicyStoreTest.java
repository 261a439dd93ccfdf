package dev.clearway.store.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.policy.PolicyAction;
import dev.clearway.core.channel.policy.PolicyEvent;
import dev.clearway.core.channel.policy.PolicyProblem;
import dev.clearway.core.channel.policy.PolicyRecord;
import dev.clearway.core.channel.policy.PolicyStatus;
import dev.clearway.store.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcRecoveryPolicyStoreTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private final DataSource dataSource = TestDatabase.get().dataSource();
  private final JdbcRecoveryPolicyStore store = new JdbcRecoveryPolicyStore(dataSource);

  @BeforeEach
  void clean() throws SQLException {
    clearPolicyTables(dataSource);
  }

  static void clearPolicyTables(DataSource ds) throws SQLException {
    TestDatabase.get().truncate("recovery_policy_event", "recovery_policy");
  }

  @Test
  void insertedRowsReadBackWithTheirEvent() {
    PolicyRecord draft = PolicyRecord.fresh("v1", "body one", PolicyStatus.DRAFT, "alice", NOW);
    assertThat(store.insert(draft, event("v1", PolicyAction.SUBMIT, "alice"))).isTrue();

    PolicyRecord read = store.find("v1").orElseThrow();
    assertThat(read).isEqualTo(draft);
    assertThat(read.bodySha256()).hasSize(64);
    assertThat(store.events("v1"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.action()).isEqualTo(PolicyAction.SUBMIT);
              assertThat(e.actor()).isEqualTo("alice");
              assertThat(e.at()).isEqualTo(NOW);
            });

    // The same version again: refused, nothing written.
    PolicyRecord other = PolicyRecord.fresh("v1", "body two", PolicyStatus.DRAFT, "bob", NOW);
    assertThat(store.insert(other, event("v1", PolicyAction.SUBMIT, "bob"))).isFalse();
    assertThat(store.find("v1").orElseThrow().body()).isEqualTo("body one");
    assertThat(store.events("v1")).hasSize(1);
  }

  @Test
  void problemsAndReportSurviveAnUpdateAndTheRowVersionMoves() {
    store.insert(
        PolicyRecord.fresh("v1", "b", PolicyStatus.DRAFT, "alice", NOW),
        event("v1", PolicyAction.SUBMIT, "alice"));
    PolicyRecord read = store.find("v1").orElseThrow();
    PolicyRecord rejected =
        read.moved(PolicyStatus.REJECTED, 0, NOW.plusSeconds(1))
            .withProblems(List.of(new PolicyProblem("unknown_channel", 0, "no channel 'x'")))
            .withDryRunReport("report");
    assertThat(store.apply(List.of(rejected), event("v1", PolicyAction.REJECT, "system"))).isTrue();

    PolicyRecord after = store.find("v1").orElseThrow();
    assertThat(after.status()).isEqualTo(PolicyStatus.REJECTED);
    assertThat(after.rowVersion()).isEqualTo(1);
    assertThat(after.updatedAt()).isEqualTo(NOW.plusSeconds(1));
    assertThat(after.problems()).extracting(PolicyProblem::code).containsExactly("unknown_channel");
    assertThat(after.dryRunReport()).isEqualTo("report");

    // A stale row version (0) is refused and leaves no trace, not even the event.
    assertThat(
            store.apply(
                List.of(read.moved(PolicyStatus.VALIDATED, 0, NOW)),
                event("v1", PolicyAction.VALIDATE, "system")))
        .isFalse();
    assertThat(store.find("v1").orElseThrow().status()).isEqualTo(PolicyStatus.REJECTED);
    assertThat(store.events("v1")).hasSize(2);
  }

  @Test
  void theDatabaseHoldsOneActiveAndOneCandidate() {
    store.insert(
        PolicyRecord.fresh("v1", "b1", PolicyStatus.ACTIVE, "ops", NOW),
        event("v1", PolicyAction.ACTIVATE_INITIAL, "ops"));
    assertThat(
            store.insert(
                PolicyRecord.fresh("v2", "b2", PolicyStatus.ACTIVE, "ops", NOW),
                event("v2", PolicyAction.ACTIVATE_INITIAL, "ops")))
        .isFalse();
    assertThat(store.find("v2")).isEmpty();

    for (String v : List.of("v3", "v4")) {
      store.insert(
          PolicyRecord.fresh(v, "b", PolicyStatus.VALIDATED, "ops", NOW),
          event(v, PolicyAction.SUBMIT, "ops"));
    }
    PolicyRecord v3 = store.find("v3").orElseThrow();
    PolicyRecord v4 = store.find("v4").orElseThrow();
    assertThat(
            store.apply(
                List.of(v3.moved(PolicyStatus.CANDIDATE, 10, NOW)),
                event("v3", PolicyAction.ROLLOUT, "ops")))
        .isTrue();
    assertThat(
            store.apply(
                List.of(v4.moved(PolicyStatus.CANDIDATE, 10, NOW)),
                event("v4", PolicyAction.ROLLOUT, "ops")))
        .isFalse();
    assertThat(store.find("v4").orElseThrow().status()).isEqualTo(PolicyStatus.VALIDATED);
    assertThat(store.findSingle(PolicyStatus.CANDIDATE).orElseThrow().version()).isEqualTo("v3");
    assertThat(store.findSingle(PolicyStatus.ACTIVE).orElseThrow().version()).isEqualTo("v1");
  }

  @Test
  void ofTwoConcurrentPromotesExactlyOneWins() throws Exception {
    store.insert(
        PolicyRecord.fresh("v1", "b1", PolicyStatus.ACTIVE, "ops", NOW),
        event("v1", PolicyAction.ACTIVATE_INITIAL, "ops"));
    for (String v : List.of("v2", "v3")) {
      store.insert(
          PolicyRecord.fresh(v, "b", PolicyStatus.VALIDATED, "ops", NOW),
          event(v, PolicyAction.SUBMIT, "ops"));
    }
    // Both read the same ACTIVE row, then race to replace it.
    PolicyRecord active = store.find("v1").orElseThrow();
    List<Callable<Boolean>> promotes = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    for (String v : List.of("v2", "v3")) {
      PolicyRecord target = store.find(v).orElseThrow();
      promotes.add(
          () -> {
            start.await();
            return store.apply(
                List.of(
                    active.moved(PolicyStatus.RETIRED, 0, NOW),
                    target.moved(PolicyStatus.ACTIVE, 0, NOW).withPreviousActive("v1")),
                event(v, PolicyAction.PROMOTE, "ops-" + v));
          });
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (Callable<Boolean> p : promotes) {
        results.add(pool.submit(p));
      }
      start.countDown();
      int wins = 0;
      String winner = null;
      for (int i = 0; i < results.size(); i++) {
        if (results.get(i).get(10, TimeUnit.SECONDS)) {
          wins++;
          winner = i == 0 ? "v2" : "v3";
        }
      }
      assertThat(wins).isEqualTo(1);
      String loser = winner.equals("v2") ? "v3" : "v2";
      assertThat(store.findSingle(PolicyStatus.ACTIVE).orElseThrow().version()).isEqualTo(winner);
      assertThat(store.find("v1").orElseThrow().status()).isEqualTo(PolicyStatus.RETIRED);
      assertThat(store.find(loser).orElseThrow().status()).isEqualTo(PolicyStatus.VALIDATED);
      assertThat(store.events(winner))
          .extracting(PolicyEvent::action)
          .contains(PolicyAction.PROMOTE);
      assertThat(store.events(loser))
          .extracting(PolicyEvent::action)
          .doesNotContain(PolicyAction.PROMOTE);
    } finally {
      pool.shutdownNow();
    }
  }

  private static PolicyEvent event(String version, PolicyAction action, String actor) {
    return new PolicyEvent(version, action, actor, null, NOW, null);
  }
}
