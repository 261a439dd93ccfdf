package dev.clearway.core.channel.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PolicyRegistryTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private final Policies.LookupParser parser = new Policies.LookupParser();
  private final InMemoryRecoveryPolicyStore store = new InMemoryRecoveryPolicyStore();
  private final PolicyRegistry registry =
      new PolicyRegistry(store, parser, Policies.CHANNELS, Clock.fixed(NOW, ZoneOffset.UTC));

  private final RecoveryPolicy v1 =
      Policies.policy("v1", Policies.stripeCreate(), Policies.wechatCreate());
  private final RecoveryPolicy v2 =
      Policies.policy(
          "v2",
          Policies.rule(
              "stripe",
              "card",
              Operation.CREATE,
              List.of(RecoveryStrategy.RETRIEVE, RecoveryStrategy.IDEMPOTENT_REPLAY),
              20),
          Policies.wechatCreate());
  private final List<RecordedAttempt> history =
      List.of(
          new RecordedAttempt(1, "stripe", "card", Operation.CREATE, NOW.minusSeconds(60), null, 1),
          new RecordedAttempt(
              2, "wechat", "wallet", Operation.CREATE, NOW.minusSeconds(50), NOW, 2));

  @BeforeEach
  void bootstrap() throws PolicyRejected {
    RolloutState state = registry.activateInitial(parser.register(v1), "ops");
    assertThat(state).isEqualTo(new RolloutState("v1", null, 0));
  }

  @Test
  void fullReleasePathThenRollbackToLastKnownGood() throws PolicyRejected {
    assertThat(registry.submit(parser.register(v2), "alice").status())
        .isEqualTo(PolicyStatus.DRAFT);
    assertThat(registry.validate("v2").status()).isEqualTo(PolicyStatus.VALIDATED);
    assertThat(refusal(() -> registry.startRollout("v2", 10, "alice")))
        .isEqualTo("dry_run_missing");
    DryRunReport report = registry.dryRun("v2", history);
    assertThat(report.changedRules().sampleAttemptIds()).containsExactly(1L);
    assertThat(registry.record("v2").orElseThrow().dryRunReport()).contains("changed_rules: 1");

    assertThat(registry.startRollout("v2", 10, "alice"))
        .isEqualTo(new RolloutState("v1", "v2", 10));
    // A task that started on the candidate pins it.
    String pinnedKey = keyOn("v2", registry.current());
    assertThat(registry.promote("v2", "bob")).isEqualTo(new RolloutState("v2", null, 0));
    assertThat(registry.record("v1").orElseThrow().status()).isEqualTo(PolicyStatus.RETIRED);
    assertThat(registry.record("v2").orElseThrow().previousActive()).isEqualTo("v1");

    assertThat(registry.rollback("carol", "unknown rate doubled"))
        .isEqualTo(new RolloutState("v1", null, 0));
    assertThat(registry.record("v2").orElseThrow().status()).isEqualTo(PolicyStatus.ROLLED_BACK);
    assertThat(registry.record("v1").orElseThrow().status()).isEqualTo(PolicyStatus.ACTIVE);
    // The pinned version stays loadable after its rollback.
    assertThat(pinnedKey).isNotNull();
    assertThat(registry.version("v2")).isEqualTo(v2);
    // v1 was the first policy: nothing further to roll back to.
    assertThat(refusal(() -> registry.rollback("carol", "again"))).isEqualTo("no_last_known_good");

    List<PolicyEvent> audit = registry.audit("v2");
    assertThat(audit)
        .extracting(PolicyEvent::action)
        .containsExactly(
            PolicyAction.SUBMIT,
            PolicyAction.VALIDATE,
            PolicyAction.DRY_RUN,
            PolicyAction.ROLLOUT,
            PolicyAction.PROMOTE,
            PolicyAction.ROLLBACK);
    PolicyEvent rollback = audit.get(audit.size() - 1);
    assertThat(rollback.actor()).isEqualTo("carol");
    assertThat(rollback.reason()).isEqualTo("unknown rate doubled");
    assertThat(rollback.at()).isEqualTo(NOW);
    assertThat(rollback.detail()).isEqualTo("restored=v1");
  }

  @Test
  void rollbackOfACandidateKeepsTheStableAndThePinnedVersion() throws PolicyRejected {
    release(v2, 50);
    assertThat(registry.rollback("carol", "budget")).isEqualTo(new RolloutState("v1", null, 0));
    assertThat(registry.record("v2").orElseThrow().status()).isEqualTo(PolicyStatus.ROLLED_BACK);
    assertThat(registry.version("v2").rules()).hasSize(2);
    assertThat(refusal(() -> registry.promote("v2", "bob"))).isEqualTo("not_in_rollout");
  }

  @Test
  void pauseSendsNewTasksToStableAndResumeContinues() throws PolicyRejected {
    release(v2, 30);
    assertThat(refusal(() -> registry.pause("ops", " "))).isEqualTo("reason_required");
    assertThat(registry.pause("ops", "incident 7")).isEqualTo(new RolloutState("v1", "v2", 0));
    assertThat(registry.current().versionFor("any-key")).isEqualTo("v1");
    assertThat(registry.audit("v2").get(registry.audit("v2").size() - 1).action())
        .isEqualTo(PolicyAction.PAUSE);
    assertThat(registry.startRollout("v2", 5, "ops")).isEqualTo(new RolloutState("v1", "v2", 5));
  }

  @Test
  void rejectedPoliciesNeverRollOutAndBadDocumentsWriteNothing() throws PolicyRejected {
    RecoveryPolicy bad =
        Policies.policy(
            "v3",
            Policies.rule(
                "stripe", "card", Operation.CREATE, List.of(RecoveryStrategy.WAIT_WEBHOOK), 20));
    registry.submit(parser.register(bad), "alice");
    PolicyRecord rejected = registry.validate("v3");
    assertThat(rejected.status()).isEqualTo(PolicyStatus.REJECTED);
    assertThat(rejected.problems())
        .extracting(PolicyProblem::code)
        .containsExactly("strategy_not_supported");
    assertThat(refusal(() -> registry.dryRun("v3", history))).isEqualTo("not_validated");
    assertThat(refusal(() -> registry.startRollout("v3", 10, "alice"))).isEqualTo("not_validated");
    assertThat(registry.current()).isEqualTo(new RolloutState("v1", null, 0));

    assertThat(refusal(() -> registry.submit("not a document", "alice"))).isEqualTo("yaml_syntax");
    assertThat(refusal(() -> registry.submit(parser.register(v1), "alice")))
        .isEqualTo("version_exists");
    assertThat(refusal(() -> registry.validate("nope"))).isEqualTo("not_found");
    assertThat(refusal(() -> registry.startRollout("v3", 0, "alice"))).isEqualTo("bad_percent");
  }

  @Test
  void bootstrapRefusesAnInvalidFileAndIsANoOpOnceActive() throws PolicyRejected {
    InMemoryRecoveryPolicyStore empty = new InMemoryRecoveryPolicyStore();
    PolicyRegistry fresh =
        new PolicyRegistry(empty, parser, Policies.CHANNELS, Clock.fixed(NOW, ZoneOffset.UTC));
    RecoveryPolicy tooFast =
        Policies.policy(
            "boot",
            new PolicyRule(
                new RuleMatch("stripe", "card", Operation.CREATE),
                List.of(RecoveryStrategy.RETRIEVE),
                List.of(Duration.ofSeconds(1)),
                Duration.ofMinutes(1),
                5000,
                1));
    PolicyRejected e =
        catchThrowableOfType(
            () -> fresh.activateInitial(parser.register(tooFast), "ops"), PolicyRejected.class);
    assertThat(e.code()).isEqualTo("policy_invalid");
    assertThat(e.problems()).extracting(PolicyProblem::code).containsExactly("qps_out_of_range");
    assertThat(empty.find("boot")).isEmpty();
    assertThat(fresh.current()).isEqualTo(new RolloutState(null, null, 0));

    // Already active: the file's version is not stored.
    assertThat(registry.activateInitial(parser.register(v2), "ops"))
        .isEqualTo(new RolloutState("v1", null, 0));
    assertThat(store.find("v2")).isEmpty();
  }

  @Test
  void dryRunFindingsThatLeaveAttemptsWithoutRecoveryBlockTheRollout() throws PolicyRejected {
    RecoveryPolicy stripeOnly = Policies.policy("v4", Policies.stripeCreate());
    registry.submit(parser.register(stripeOnly), "alice");
    registry.validate("v4");
    DryRunReport report = registry.dryRun("v4", history);
    assertThat(report.unmatched().sampleAttemptIds()).containsExactly(2L);
    assertThat(refusal(() -> registry.startRollout("v4", 10, "alice")))
        .isEqualTo("dry_run_blocked");
    assertThat(registry.current().rollingOut()).isFalse();
  }

  @Test
  void oneCandidateAtATime() throws PolicyRejected {
    release(v2, 10);
    RecoveryPolicy v5 = Policies.policy("v5", Policies.stripeCreate(), Policies.wechatCreate());
    registry.submit(parser.register(v5), "alice");
    registry.validate("v5");
    registry.dryRun("v5", history);
    assertThat(refusal(() -> registry.startRollout("v5", 10, "alice")))
        .isEqualTo("rollout_in_progress");
  }

  private void release(RecoveryPolicy policy, int percent) throws PolicyRejected {
    registry.submit(parser.register(policy), "alice");
    registry.validate(policy.version());
    registry.dryRun(policy.version(), history);
    registry.startRollout(policy.version(), percent, "alice");
  }

  private static String keyOn(String version, RolloutState state) {
    for (int i = 0; i < 1000; i++) {
      if (state.versionFor("attempt-" + i).equals(version)) {
        return "attempt-" + i;
      }
    }
    return null;
  }

  @FunctionalInterface
  interface Command {
    void run() throws PolicyRejected;
  }

  private static String refusal(Command command) {
    PolicyRejected e = catchThrowableOfType(command::run, PolicyRejected.class);
    assertThat(e).as("expected a refusal").isNotNull();
    return e.code();
  }
}
