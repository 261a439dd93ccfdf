package dev.clearway.lab.engine;

import static dev.clearway.service.testkit.EngineHarness.T0;
import static dev.clearway.service.testkit.EngineHarness.goal;
import static dev.clearway.service.testkit.EngineHarness.refundNo;
import static dev.clearway.service.testkit.EngineHarness.trade;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.testing.Choice;
import dev.clearway.core.testing.Gen;
import dev.clearway.core.testing.SeededProperty;
import dev.clearway.lab.chaos.FlowSnapshot;
import dev.clearway.lab.chaos.InvariantChecker;
import dev.clearway.lab.chaos.Verdict;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.ScriptedBusiness.Fulfil;
import dev.clearway.service.testkit.ScriptedWallet.Pay;
import dev.clearway.service.testkit.ScriptedWallet.Refund;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The engine's property test: random interleavings of the synchronous entry, duplicated and late
 * wake-ups and callbacks, stale scanner tasks, scanner rounds, clock jumps, wallet and business
 * outcomes, over two to four goals (several attempts may share one goal). After every action the
 * safety invariants hold; at the end, driven to quiescence, every flow is terminal and every
 * charged flow whose goal was not granted to it is refunded (or waits for a person).
 */
@Tag(TestDatabase.MYSQL_FAMILY)
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

  /** Cases per run of {@code ./mvnw verify}; each is a fresh database and a full scenario. */
  private static final int CASES = 150;

  /** The outcomes the scenarios must reach at least once in a run (coverage of the generator). */
  private static final List<String> COVERED =
      List.of(
          "BIZ_SUCCESS", "REFUNDED", "PAY_FAIL", "CLOSED", "crash", "attempt 2", "CAS conflict");

  @Test
  void invariantsHoldAfterEveryActionAndEveryFlowConverges() {
    Map<String, Integer> seen = new ConcurrentHashMap<>();
    SeededProperty.of("engine interleavings", EnginePropertyTest::scenario, s -> s.actions().size())
        .check(CASES, s -> run(s, seen));
    if (System.getProperty("clearway.seed") == null) {
      assertThat(seen.keySet()).as("outcomes reached in %d cases", CASES).containsAll(COVERED);
    }
  }

  private static void run(Scenario s, Map<String, Integer> seen) {
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
      if (status.isTerminal() && flows.stream().anyMatch(f -> f.status() == status)) {
        seen.merge(status.name(), 1, Integer::sum);
      }
    }
    if (h.crashes() > 0) {
      seen.merge("crash", 1, Integer::sum);
    }
    // A takeover in the middle of a call makes the stale worker's write fail: on its lease fence
    // (counted as a lost lease), or on the version when the row moved for another reason.
    if (h.events.count("casConflict:IDEMPOTENT")
            + h.events.count("casConflict:CONTRADICTION")
            + h.events.count("leaseLost:pay_flow")
        > 0) {
      seen.merge("CAS conflict", 1, Integer::sum);
    }
    if (flows.stream().anyMatch(f -> f.attemptNo() > 1)) {
      seen.merge("attempt 2", 1, Integer::sum);
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

  static Scenario scenario(Random r) {
    List<Integer> deadlines = Gen.listOf(r, 2, 4, g -> Gen.between(g, 300, 6_000));
    List<AttemptScript> attempts =
        Gen.listOf(r, SCRIPTED_FLOWS, SCRIPTED_FLOWS, EnginePropertyTest::attempt);
    List<Action> actions = new ArrayList<>();
    actions.add(new Start(0));
    actions.addAll(Gen.listOf(r, 3, 30, ACTIONS));
    return new Scenario(deadlines, attempts, actions);
  }

  private static AttemptScript attempt(Random r) {
    return new AttemptScript(
        Gen.listOf(r, 0, 3, PAYS),
        Gen.listOf(r, 0, 2, FULFILS),
        Gen.between(r, 0, 6_000),
        Gen.listOf(r, 0, 2, REFUNDS));
  }

  private static final Choice<Pay> PAYS =
      Choice.<Pay>of()
          .or(3, Pay.SUCCESS)
          .or(2, Pay.RESPONSE_LOST)
          .or(2, Pay.TIMEOUT_BEFORE)
          .or(1, Pay.PROCESSING)
          .or(1, Pay.REJECT)
          .or(1, Pay.ERROR_5XX_AFTER)
          .or(1, Pay.CRASH_AFTER);

  private static final Choice<Fulfil> FULFILS =
      Choice.<Fulfil>of()
          .or(3, Fulfil.GRANT)
          .or(1, Fulfil.RESPONSE_LOST)
          .or(2, Fulfil.NEVER)
          .or(2, Fulfil.LATER)
          .or(1, Fulfil.UNAVAILABLE)
          .or(1, Fulfil.CRASH_AFTER_GRANT);

  private static final Choice<Refund> REFUNDS =
      Choice.<Refund>of()
          .or(2, Refund.SUCCESS)
          .or(1, Refund.RESPONSE_LOST)
          .or(1, Refund.TIMEOUT_BEFORE)
          .or(1, Refund.PROCESSING)
          .or(1, Refund.FAILED_ONCE)
          .or(1, Refund.CRASH_AFTER);

  private static final Choice<JumpKind> JUMP_KINDS =
      Choice.<JumpKind>of()
          .or(4, JumpKind.SMALL)
          .or(2, JumpKind.PAST_LEASE)
          .or(1, JumpKind.PAST_DEADLINES)
          .or(1, JumpKind.LONG);

  private static final Function<Random, Integer> GOAL = r -> Gen.between(r, 0, 3);
  private static final Function<Random, Integer> FLOW = r -> Gen.between(r, 0, 7);

  private static final Choice<Action> ACTIONS =
      Choice.<Action>of()
          .orDrawn(4, r -> new Start(GOAL.apply(r)))
          .orDrawn(
              6,
              r ->
                  new Advance(
                      FLOW.apply(r),
                      Gen.oneOf(
                          r, TriggerSource.WAKEUP, TriggerSource.CALLBACK, TriggerSource.SYNC),
                      r.nextBoolean()))
          .orDrawn(1, r -> new StaleScannerTask(FLOW.apply(r)))
          .or(3, new ScanRound())
          .orDrawn(4, r -> new Jump(JUMP_KINDS.apply(r), Gen.between(r, 10, 600)))
          .orDrawn(1, r -> new ForeignGrant(GOAL.apply(r)))
          .orDrawn(1, r -> new UnreadableFacts(GOAL.apply(r), Gen.between(r, 1, 5)))
          .orDrawn(1, r -> new LatePay(FLOW.apply(r)))
          .orDrawn(1, r -> new WalletOutage(r.nextBoolean()))
          .orDrawn(2, r -> new TakeoverDuringCall(r.nextBoolean(), r.nextBoolean()));
}
