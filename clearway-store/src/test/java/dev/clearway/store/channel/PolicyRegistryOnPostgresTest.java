package dev.clearway.store.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyAction;
import dev.clearway.core.channel.policy.PolicyEvent;
import dev.clearway.core.channel.policy.PolicyParser;
import dev.clearway.core.channel.policy.PolicyProblem;
import dev.clearway.core.channel.policy.PolicyRegistry;
import dev.clearway.core.channel.policy.PolicyRejected;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.PolicyStatus;
import dev.clearway.core.channel.policy.RecordedAttempt;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RolloutState;
import dev.clearway.core.channel.policy.RuleMatch;
import dev.clearway.core.channel.spi.RecoveryCapabilities;
import dev.clearway.store.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The registry's release path over the real store: promote, rollback, pinned versions. */
class PolicyRegistryOnPostgresTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final Map<String, RecoveryCapabilities> CHANNELS =
      Map.of("stripe", new RecoveryCapabilities(true, true, true, false, true));

  /** "version delaySeconds": one stripe card create rule; anything else is a syntax error. */
  private static final PolicyParser PARSER =
      text -> {
        String[] parts = text.split(" ");
        if (parts.length != 2) {
          throw PolicyRejected.of(
              List.of(new PolicyProblem("yaml_syntax", -1, "(root): two words expected")));
        }
        return new RecoveryPolicy(
            parts[0],
            List.of(
                new PolicyRule(
                    new RuleMatch("stripe", "card", Operation.CREATE),
                    List.of(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
                    List.of(Duration.ofSeconds(Long.parseLong(parts[1]))),
                    Duration.ofHours(1),
                    20,
                    4)));
      };

  private final JdbcRecoveryPolicyStore store =
      new JdbcRecoveryPolicyStore(TestDatabase.get().dataSource());
  private final PolicyRegistry registry =
      new PolicyRegistry(store, PARSER, CHANNELS, Clock.fixed(NOW, ZoneOffset.UTC));
  private final List<RecordedAttempt> history =
      List.of(new RecordedAttempt(7, "stripe", "card", Operation.CREATE, NOW, null, 1));

  @BeforeEach
  void clean() throws SQLException {
    JdbcRecoveryPolicyStoreTest.clearPolicyTables(TestDatabase.get().dataSource());
  }

  @Test
  void promoteThenRollbackReturnsToTheLastKnownGoodAndPinnedVersionsStayLoadable()
      throws PolicyRejected {
    registry.activateInitial("v1 10", "boot");
    release("v2 5");
    RolloutState half = registry.current();
    String onCandidate = null;
    for (int i = 0; onCandidate == null; i++) {
      if (half.versionFor("attempt-" + i).equals("v2")) {
        onCandidate = "attempt-" + i;
      }
    }
    // The task of this attempt pinned v2 while it was the candidate.
    String pinned = half.versionFor(onCandidate);
    assertThat(registry.promote("v2", "bob")).isEqualTo(new RolloutState("v2", null, 0));
    release("v3 3");
    assertThat(registry.promote("v3", "bob")).isEqualTo(new RolloutState("v3", null, 0));

    assertThat(registry.rollback("carol", "unknown rate up"))
        .isEqualTo(new RolloutState("v2", null, 0));
    assertThat(registry.rollback("carol", "still bad")).isEqualTo(new RolloutState("v1", null, 0));
    assertThat(store.find("v3").orElseThrow().status()).isEqualTo(PolicyStatus.ROLLED_BACK);
    assertThat(store.find("v2").orElseThrow().status()).isEqualTo(PolicyStatus.ROLLED_BACK);

    // Every version stays loadable, whatever became of it.
    assertThat(registry.version("v3").rules().get(0).delayAfter(0))
        .isEqualTo(Duration.ofSeconds(3));
    assertThat(pinned).isEqualTo("v2");
    assertThat(
            new PolicyRegistry(store, PARSER, CHANNELS, Clock.systemUTC())
                .version("v2")
                .rules()
                .get(0)
                .delayAfter(0))
        .isEqualTo(Duration.ofSeconds(5));

    List<PolicyEvent> v3Audit = registry.audit("v3");
    assertThat(v3Audit)
        .extracting(PolicyEvent::action)
        .containsExactly(
            PolicyAction.SUBMIT,
            PolicyAction.VALIDATE,
            PolicyAction.DRY_RUN,
            PolicyAction.ROLLOUT,
            PolicyAction.PROMOTE,
            PolicyAction.ROLLBACK);
    assertThat(v3Audit.get(5).reason()).isEqualTo("unknown rate up");
    assertThat(v3Audit.get(5).detail()).isEqualTo("restored=v2");
  }

  @Test
  void ofConcurrentPromotesOfOneCandidateExactlyOneWins() throws Exception {
    registry.activateInitial("v1 10", "boot");
    release("v2 5");
    int n = 4;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String actor = "op" + i;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    registry.promote("v2", actor);
                    return "won";
                  } catch (PolicyRejected e) {
                    return e.code();
                  }
                }));
      }
      start.countDown();
      List<String> outcomes = new ArrayList<>();
      for (var r : results) {
        outcomes.add(r.get(10, TimeUnit.SECONDS));
      }
      assertThat(outcomes).containsOnlyOnce("won");
      assertThat(outcomes)
          .filteredOn(o -> !o.equals("won"))
          .allMatch(o -> o.equals("concurrent_change") || o.equals("not_in_rollout"));
      assertThat(registry.current()).isEqualTo(new RolloutState("v2", null, 0));
      assertThat(registry.audit("v2"))
          .filteredOn(e -> e.action() == PolicyAction.PROMOTE)
          .hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aRefusedCommandWritesNothing() throws PolicyRejected {
    registry.activateInitial("v1 10", "boot");
    PolicyRejected e =
        catchThrowableOfType(() -> registry.submit("garbage", "alice"), PolicyRejected.class);
    assertThat(e.code()).isEqualTo("yaml_syntax");
    registry.submit("v2 5", "alice");
    PolicyRejected early =
        catchThrowableOfType(() -> registry.startRollout("v2", 10, "alice"), PolicyRejected.class);
    assertThat(early.code()).isEqualTo("not_validated");
    assertThat(store.find("v2").orElseThrow().status()).isEqualTo(PolicyStatus.DRAFT);
    assertThat(registry.audit("v2"))
        .extracting(PolicyEvent::action)
        .containsExactly(PolicyAction.SUBMIT);
  }

  private void release(String text) throws PolicyRejected {
    String version = registry.submit(text, "alice").version();
    registry.validate(version);
    registry.dryRun(version, history);
    registry.startRollout(version, 50, "alice");
  }
}
