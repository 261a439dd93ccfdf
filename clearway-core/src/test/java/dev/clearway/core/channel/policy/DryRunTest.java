package dev.clearway.core.channel.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DryRunTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private final PolicyRule stripeRefund =
      Policies.rule(
          "stripe", "card", Operation.REFUND, List.of(RecoveryStrategy.IDEMPOTENT_REPLAY), 10);
  private final RecoveryPolicy current =
      Policies.policy("v1", Policies.stripeCreate(), Policies.wechatCreate(), stripeRefund);

  /** Stripe card create now retried every second with a budget of 5/s; WeChat dropped. */
  private final RecoveryPolicy candidate =
      Policies.policy(
          "v2",
          new PolicyRule(
              new RuleMatch("stripe", "card", Operation.CREATE),
              List.of(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
              List.of(Duration.ofSeconds(1)),
              Duration.ofHours(1),
              5,
              4),
          stripeRefund,
          Policies.rule("waitonly", "*", Operation.CREATE, List.of(RecoveryStrategy.RETRIEVE), 5));

  @Test
  void reportsUnmatchedEmptyChangedAgedAndTheBudgetJump() {
    List<RecordedAttempt> history = new ArrayList<>();
    // 30 stripe attempts, one UNKNOWN per second, all unresolved.
    for (int i = 0; i < 30; i++) {
      history.add(attempt(100 + i, "stripe", "card", Operation.CREATE, T0.plusSeconds(i), null, 2));
    }
    history.add(attempt(200, "wechat", "wallet", Operation.CREATE, T0, T0.plusSeconds(20), 1));
    history.add(attempt(201, "wechat", "wallet", Operation.CREATE, T0, null, 3));
    history.add(attempt(300, "waitonly", "bank", Operation.CREATE, T0, null, 0));
    history.add(attempt(400, "stripe", "card", Operation.REFUND, T0, T0.plusSeconds(40), 1));
    // Unresolved for 3 hours at the end of history; the candidate gives up after 1 hour.
    history.add(
        attempt(500, "stripe", "card", Operation.CREATE, T0.minus(Duration.ofHours(3)), null, 9));
    // Resolved after 90 minutes: the candidate would have escalated it after 60.
    history.add(
        attempt(
            501,
            "stripe",
            "card",
            Operation.CREATE,
            T0.minus(Duration.ofHours(2)),
            T0.minus(Duration.ofMinutes(30)),
            7));

    DryRunReport report = new DryRun().run(current, candidate, Policies.CHANNELS, history);

    assertThat(report.total()).isEqualTo(36);
    assertThat(report.asOf()).isEqualTo(T0.plusSeconds(40));
    assertThat(report.unmatched().count()).isEqualTo(2);
    assertThat(report.unmatched().sampleAttemptIds()).containsExactly(200L, 201L);
    assertThat(report.emptyCandidates().count()).isEqualTo(1);
    assertThat(report.emptyCandidates().sampleAttemptIds()).containsExactly(300L);
    // 32 stripe creates (changed rule) + the waitonly one (no current rule); not the refund.
    assertThat(report.changedRules().count()).isEqualTo(33);
    assertThat(report.changedRules().sampleAttemptIds())
        .hasSize(DryRunFinding.MAX_SAMPLES)
        .doesNotContain(400L);
    assertThat(report.unresolvedPastMaxAge().sampleAttemptIds()).containsExactly(500L);
    assertThat(report.resolvedAfterMaxAge().sampleAttemptIds()).containsExactly(501L);

    BudgetLine stripe = line(report, "stripe", Operation.CREATE);
    assertThat(stripe.attempts()).isEqualTo(32);
    assertThat(stripe.recordedCalls()).isEqualTo(30 * 2 + 9 + 7);
    assertThat(stripe.currentPeakPerSecond()).isLessThanOrEqualTo(3);
    assertThat(stripe.candidatePeakPerSecond()).isEqualTo(30);
    assertThat(stripe.exceeded()).isTrue();
    assertThat(report.budgetExceeded())
        .extracting(BudgetLine::match)
        .containsExactly(new RuleMatch("stripe", "card", Operation.CREATE));

    BudgetLine refund = line(report, "stripe", Operation.REFUND);
    // Runs at +10s and +40s: the answer at +40s stops the second one.
    assertThat(refund.plannedCalls()).isEqualTo(1);
    assertThat(refund.exceeded()).isFalse();
    // The waitonly rule can call nothing: no budget used.
    assertThat(line(report, "waitonly", Operation.CREATE).plannedCalls()).isZero();

    assertThat(report.clean()).isFalse();
    assertThat(report.toText()).contains("unmatched: 2", "EXCEEDED");
    // Pure: the same inputs give the same report.
    assertThat(new DryRun().run(current, candidate, Policies.CHANNELS, history)).isEqualTo(report);
  }

  @Test
  void identicalPoliciesChangeNothing() {
    List<RecordedAttempt> history =
        List.of(
            attempt(1, "stripe", "card", Operation.CREATE, T0, T0.plusSeconds(15), 1),
            attempt(2, "wechat", "wallet", Operation.CREATE, T0, null, 0));
    DryRunReport report = new DryRun().run(current, current, Policies.CHANNELS, history);
    assertThat(report.changedRules().count()).isZero();
    assertThat(report.unmatched().count()).isZero();
    assertThat(report.emptyCandidates().count()).isZero();
    assertThat(report.clean()).isTrue();
    assertThat(new DryRun().run(current, current, Policies.CHANNELS, List.of()).total()).isZero();
  }

  private static BudgetLine line(DryRunReport report, String channel, Operation op) {
    return report.budgets().stream()
        .filter(b -> b.match().channel().equals(channel) && b.match().operation() == op)
        .findFirst()
        .orElseThrow();
  }

  private static RecordedAttempt attempt(
      long id,
      String channel,
      String method,
      Operation op,
      Instant at,
      Instant resolved,
      int calls) {
    return new RecordedAttempt(id, channel, method, op, at, resolved, calls);
  }
}
