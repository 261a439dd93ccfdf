package dev.clearway.app.engine;

import static dev.clearway.app.engine.testkit.EngineHarness.T0;
import static dev.clearway.app.engine.testkit.EngineHarness.goal;
import static dev.clearway.app.engine.testkit.EngineHarness.refundNo;
import static dev.clearway.app.engine.testkit.EngineHarness.trade;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.app.chaos.FlowSnapshot;
import dev.clearway.app.chaos.InvariantChecker;
import dev.clearway.app.chaos.Verdict;
import dev.clearway.app.engine.testkit.EngineHarness;
import dev.clearway.app.engine.testkit.Invariants;
import dev.clearway.app.engine.testkit.ScriptedBusiness.Fulfil;
import dev.clearway.app.engine.testkit.ScriptedWallet.Pay;
import dev.clearway.app.engine.testkit.ScriptedWallet.Refund;
import dev.clearway.core.domain.FlowStatus;
import dev.clearway.core.domain.GoalKey;
import dev.clearway.core.domain.PayFlow;
import dev.clearway.core.domain.ReviewState;
import dev.clearway.core.domain.TriggerSource;
import dev.clearway.core.engine.EngineConfig;
import dev.clearway.core.engine.Trigger;
import dev.clearway.sim.SimulatedCrash;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Seed 000 section 15's property test: random interleavings of the synchronous entry, duplicated
 * and late wake-ups and callbacks, stale scanner tasks, scanner rounds, clock jumps, wallet and
 * business outcomes, over two to four goals (several attempts may share one goal). After every
 * action the safety invariants hold; at the end, driven to quiescence, every flow is terminal and
 * every charged flow whose goal was not granted to it is refunded (or waits for a person).
 */
class EnginePropertyTest {
  private static final EngineConfig CONFIG = EngineConfig.compressed();

  /** Flow ids 1..n get a generated script; later ones succeed everywhere. */
  private static final int SCRIPTED_FLOWS = 10;

  // ---- the model --------------------------------------------------------------------------------

  enum JumpKind {
    SMALL,
    PAST_LEASE,
    PAST_DEADLINES,
    LONG
  }

  sealed interface Action
      permits Start,
          Advance,
          StaleScannerTask,
          ScanRound,
          Jump,
          ForeignGrant,
          UnreadableFacts,
          LatePay,
          WalletOutage,
          TakeoverDuringCall {}

  /** The synchronous entry for a goal (a new attempt only after a definite failure). */
  record Start(int goal) implements Action {}

  /** A wake-up or callback for an existing flow, delivered once or twice. */
  record Advance(int flow, TriggerSource source, boolean twice) implements Action {}

  /** A scanner task that waited past its lease: runs under a lease it does not hold. */
  record StaleScannerTask(int flow) implements Action {}

  record ScanRound() implements Action {}

  record Jump(JumpKind kind, int millis) implements Action {}

  /** Another order (legacy path, older attempt) completes the goal. */
  record ForeignGrant(int goal) implements Action {}

  record UnreadableFacts(int goal, int times) implements Action {}

  /** A pay request that timed out before reaching the wallet finally arrives. */
  record LatePay(int flow) implements Action {}

  record WalletOutage(boolean down) implements Action {}

  /**
   * During the next wallet (or business) call, the lease runs out and a second worker advances the
   * same flow to wherever it gets; then the first worker resumes with its answer. The second worker
   * claims properly, or is itself a stale scanner task ({@code stale}).
   */
  record TakeoverDuringCall(boolean wallet, boolean stale) implements Action {}

  /** What the wallet and the business do for one attempt (flow id = index + 1). */
  record AttemptScript(
      List<Pay> pays, List<Fulfil> fulfils, int laterMillis, List<Refund> refunds) {}

  record Scenario(
      List<Integer> deadlineMillis, List<AttemptScript> attempts, List<Action> actions) {}

  // ---- the property -----------------------------------------------------------------------------

  @Property(tries = 150)
  void invariantsHoldAfterEveryActionAndEveryFlowConverges(@ForAll("scenarios") Scenario s) {
    EngineHarness h = EngineHarness.fresh(CONFIG);
    List<GoalKey> goals = new ArrayList<>();
    List<Instant> deadlines = new ArrayList<>();
    for (int i = 0; i < s.deadlineMillis().size(); i++) {
      goals.add(goal("P:" + i));
      deadlines.add(T0.plusMillis(s.deadlineMillis().get(i)));
    }
    for (int i = 0; i < s.attempts().size(); i++) {
      AttemptScript a = s.attempts().get(i);
      long id = i + 1;
      h.wallet.scriptPay(trade(id), a.pays().toArray(Pay[]::new));
      h.business.laterAt(trade(id), T0.plusMillis(a.laterMillis()));
      h.business.script(trade(id), a.fulfils().toArray(Fulfil[]::new));
      h.wallet.scriptRefund(refundNo(id), a.refunds().toArray(Refund[]::new));
    }
    Instant lastDeadline = deadlines.stream().max(Instant::compareTo).orElseThrow();

    List<Action> done = new ArrayList<>();
    for (Action action : s.actions()) {
      done.add(action);
      try {
        apply(h, action, goals, deadlines, lastDeadline);
      } catch (SimulatedCrash crash) {
        h.countCrash(); // the worker died; its lease expires and someone else takes over
      }
      assertThat(Invariants.safety(h)).as("after %s", done).isEmpty();
    }

    // Quiescence: the wallet recovers, time passes every lease, backoff and deadline.
    h.wallet.setDown(false);
    for (int round = 0; round < 80 && openAndNotFrozen(h) > 0; round++) {
      h.clock.advance(Duration.ofSeconds(3));
      h.scan();
      assertThat(Invariants.safety(h)).as("quiescence round %d after %s", round, done).isEmpty();
    }
    assertThat(Invariants.convergence(h)).as("after %s", done).isEmpty();
    List<PayFlow> flows = h.flowIds().stream().map(h::flow).toList();
    for (PayFlow f : flows) {
      assertThat(f.reviewState())
          .as("no contradiction was scripted: %s", f)
          .isNotEqualTo(ReviewState.FROZEN);
      assertThat(f.isTerminal()).as("%s after %s", f, done).isTrue();
    }

    InvariantChecker checker = new InvariantChecker();
    Verdict verdict =
        checker.check(
            FlowSnapshot.read(h.dataSource),
            h.wallet.ledger(),
            h.business.grants(),
            flows.size(),
            0);
    assertThat(verdict.violations().values())
        .as("chaos verifier disagrees: %s", checker.examples())
        .containsOnly(0);

    for (FlowStatus status : FlowStatus.values()) {
      if (status.isTerminal()) {
        Statistics.label(status.name()).collect(flows.stream().anyMatch(f -> f.status() == status));
      }
    }
    Statistics.label("crash").collect(h.crashes() > 0);
    // A takeover in the middle of a call makes the stale worker's write fail: on its lease fence
    // (counted as a lost lease), or on the version when the row moved for another reason.
    Statistics.label("CAS conflict")
        .collect(
            h.events.count("casConflict:IDEMPOTENT")
                    + h.events.count("casConflict:CONTRADICTION")
                    + h.events.count("leaseLost:pay_flow")
                > 0);
    Statistics.label("attempt 2").collect(flows.stream().anyMatch(f -> f.attemptNo() > 1));
    for (String label :
        new String[] {
          "BIZ_SUCCESS", "REFUNDED", "PAY_FAIL", "CLOSED", "crash", "attempt 2", "CAS conflict"
        }) {
      Statistics.label(label).coverage(c -> c.check(true).count(n -> n > 0));
    }
  }

  private static void apply(
      EngineHarness h,
      Action action,
      List<GoalKey> goals,
      List<Instant> deadlines,
      Instant lastDeadline) {
    if (action instanceof Start a) {
      int g = a.goal() % goals.size();
      h.start(goals.get(g), deadlines.get(g));
    } else if (action instanceof Advance a) {
      Long id = pick(h, a.flow());
      if (id != null) {
        h.advance(id, a.source());
        if (a.twice()) {
          h.advance(id, a.source());
        }
      }
    } else if (action instanceof StaleScannerTask a) {
      Long id = pick(h, a.flow());
      if (id != null) {
        h.advancer.advance(id, Trigger.held(TriggerSource.SCANNER, h.leases.next()));
      }
    } else if (action instanceof ScanRound) {
      h.scan();
    } else if (action instanceof Jump a) {
      switch (a.kind()) {
        case SMALL -> h.clock.advance(Duration.ofMillis(a.millis()));
        case PAST_LEASE -> h.clock.advance(CONFIG.lease().plusMillis(1));
        case PAST_DEADLINES ->
            h.clock.atLeast(lastDeadline.plus(CONFIG.deadlineGrace()).plusMillis(1));
        case LONG -> h.clock.advance(Duration.ofHours(1));
      }
    } else if (action instanceof ForeignGrant a) {
      int g = a.goal() % goals.size();
      h.business.grantForeign(goals.get(g), "legacy_" + g);
    } else if (action instanceof UnreadableFacts a) {
      h.business.unreadableFacts(goals.get(a.goal() % goals.size()), a.times());
    } else if (action instanceof LatePay a) {
      Long id = pick(h, a.flow());
      if (id != null) {
        h.wallet.deliverLatePay(trade(id));
      }
    } else if (action instanceof WalletOutage a) {
      h.wallet.setDown(a.down());
    } else if (action instanceof TakeoverDuringCall a) {
      Consumer<Long> takeover =
          id -> {
            h.clock.advance(CONFIG.lease().plusMillis(1));
            try {
              if (a.stale()) {
                h.advancer.advance(id, Trigger.held(TriggerSource.SCANNER, h.leases.next()));
              } else {
                h.advance(id, TriggerSource.WAKEUP);
              }
            } catch (SimulatedCrash crash) {
              h.countCrash();
            }
          };
      if (a.wallet()) {
        h.wallet.duringNextCall(orderNo -> h.flowIdOf(orderNo).ifPresent(takeover));
      } else {
        h.business.duringNextCall(
            goal -> {
              List<PayFlow> attempts = h.store.findByGoal(goal);
              takeover.accept(attempts.get(attempts.size() - 1).id());
            });
      }
    } else {
      throw new IllegalArgumentException(String.valueOf(action));
    }
  }

  /** The n-th existing flow (modulo their number), or null when none exists yet. */
  private static Long pick(EngineHarness h, int n) {
    List<Long> ids = h.flowIds();
    return ids.isEmpty() ? null : ids.get(n % ids.size());
  }

  private static long openAndNotFrozen(EngineHarness h) {
    return h.flowIds().stream().map(h::flow).filter(f -> !f.isTerminal() && !f.isFrozen()).count();
  }

  // ---- generators -------------------------------------------------------------------------------

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<List<Integer>> deadlines =
        Arbitraries.integers().between(300, 6_000).list().ofMinSize(2).ofMaxSize(4);
    Arbitrary<AttemptScript> attempt =
        Combinators.combine(
                pays().list().ofMaxSize(3),
                fulfils().list().ofMaxSize(2),
                Arbitraries.integers().between(0, 6_000),
                refunds().list().ofMaxSize(2))
            .as(AttemptScript::new);
    Arbitrary<List<Action>> actions =
        actions()
            .list()
            .ofMinSize(3)
            .ofMaxSize(30)
            .map(
                list -> {
                  List<Action> withStart = new ArrayList<>();
                  withStart.add(new Start(0));
                  withStart.addAll(list);
                  return withStart;
                });
    return Combinators.combine(deadlines, attempt.list().ofSize(SCRIPTED_FLOWS), actions)
        .as(Scenario::new);
  }

  private static Arbitrary<Pay> pays() {
    return Arbitraries.frequency(
        Tuple.of(3, Pay.SUCCESS),
        Tuple.of(2, Pay.RESPONSE_LOST),
        Tuple.of(2, Pay.TIMEOUT_BEFORE),
        Tuple.of(1, Pay.PROCESSING),
        Tuple.of(1, Pay.REJECT),
        Tuple.of(1, Pay.ERROR_5XX_AFTER),
        Tuple.of(1, Pay.CRASH_AFTER));
  }

  private static Arbitrary<Fulfil> fulfils() {
    return Arbitraries.frequency(
        Tuple.of(3, Fulfil.GRANT),
        Tuple.of(1, Fulfil.RESPONSE_LOST),
        Tuple.of(2, Fulfil.NEVER),
        Tuple.of(2, Fulfil.LATER),
        Tuple.of(1, Fulfil.UNAVAILABLE),
        Tuple.of(1, Fulfil.CRASH_AFTER_GRANT));
  }

  private static Arbitrary<Refund> refunds() {
    return Arbitraries.frequency(
        Tuple.of(2, Refund.SUCCESS),
        Tuple.of(1, Refund.RESPONSE_LOST),
        Tuple.of(1, Refund.TIMEOUT_BEFORE),
        Tuple.of(1, Refund.PROCESSING),
        Tuple.of(1, Refund.FAILED_ONCE),
        Tuple.of(1, Refund.CRASH_AFTER));
  }

  private static Arbitrary<Action> actions() {
    Arbitrary<Integer> goal = Arbitraries.integers().between(0, 3);
    Arbitrary<Integer> flow = Arbitraries.integers().between(0, 7);
    Arbitrary<TriggerSource> source =
        Arbitraries.of(TriggerSource.WAKEUP, TriggerSource.CALLBACK, TriggerSource.SYNC);
    Arbitrary<JumpKind> jumpKind =
        Arbitraries.frequency(
            Tuple.of(4, JumpKind.SMALL),
            Tuple.of(2, JumpKind.PAST_LEASE),
            Tuple.of(1, JumpKind.PAST_DEADLINES),
            Tuple.of(1, JumpKind.LONG));
    return Arbitraries.frequencyOf(
        Tuple.of(4, goal.map(Start::new)),
        Tuple.of(
            6, Combinators.combine(flow, source, Arbitraries.of(true, false)).as(Advance::new)),
        Tuple.of(1, flow.map(StaleScannerTask::new)),
        Tuple.of(3, Arbitraries.just(new ScanRound())),
        Tuple.of(
            4,
            Combinators.combine(jumpKind, Arbitraries.integers().between(10, 600)).as(Jump::new)),
        Tuple.of(1, goal.map(ForeignGrant::new)),
        Tuple.of(
            1,
            Combinators.combine(goal, Arbitraries.integers().between(1, 5))
                .as(UnreadableFacts::new)),
        Tuple.of(1, flow.map(LatePay::new)),
        Tuple.of(1, Arbitraries.of(true, false).map(WalletOutage::new)),
        Tuple.of(
            2,
            Combinators.combine(Arbitraries.of(true, false), Arbitraries.of(true, false))
                .as(TakeoverDuringCall::new)));
  }
}
