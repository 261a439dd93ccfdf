package dev.clearway.core.modelcheck.latecharge;

import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.modelcheck.Explorer;
import dev.clearway.core.modelcheck.Explorer.Move;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.Session;
import dev.clearway.core.modelcheck.Show;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.WorkerSteps;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryLateChargeStore;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import dev.clearway.core.modelcheck.world.WalletLedger.OrderState;
import dev.clearway.core.modelcheck.world.WalletLedger.RefundState;
import dev.clearway.core.refund.domain.RefundOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The late-charge machine as the explorer sees it: workers run the real {@link
 * dev.clearway.core.latecharge.engine.LateChargeChecker} (scanner rounds and wake-ups), which asks
 * the wallet about the closed flow's order and requests the LATE_CHARGE refund through the real
 * refund code, and refund scanner rounds; the wallet answers every call in every way its ledger
 * allows and settles PROCESSING orders (a charge that lands late) and refunds; the clock moves to
 * the next lease expiry, backoff or retry time.
 */
public final class LateChargeModel
    implements Explorer.Model<LateChargeModelState>,
        WorkerSteps.Rig<LateChargeModelState, LateChargeWorld> {

  public record Setup(LateChargeStage stage, Fencing fencing, int workers, LeaseRule leaseRule) {}

  private final Setup setup;

  public LateChargeModel(Setup setup) {
    this.setup = setup;
  }

  @Override
  public String name() {
    return "late-charge machine from "
        + setup.stage()
        + " ("
        + setup.fencing()
        + ", "
        + setup.workers()
        + " workers)";
  }

  @Override
  public List<LateChargeModelState> initial() {
    List<WorkerState> workers = new ArrayList<>();
    for (int i = 1; i <= setup.workers(); i++) {
      workers.add(WorkerState.idle("W" + i));
    }
    return setup.stage().initial(List.copyOf(workers));
  }

  @Override
  public List<Move<LateChargeModelState>> moves(LateChargeModelState state) {
    List<Move<LateChargeModelState>> moves = new ArrayList<>();
    for (int i = 0; i < state.workers().size(); i++) {
      WorkerState w = state.workers().get(i);
      if (w.busy()) {
        moves.addAll(WorkerSteps.moves(this, state, i, w));
      } else {
        for (String program : startable(state)) {
          moves.addAll(WorkerSteps.moves(this, state, i, w.start(program)));
        }
      }
    }
    moves.addAll(worldMoves(state));
    clockMove(state).ifPresent(moves::add);
    return moves;
  }

  /** A scanner round when the check (or a refund) is due; a wake-up takes a free check early. */
  private static List<String> startable(LateChargeModelState state) {
    List<String> programs = new ArrayList<>();
    LateChargeCheck c = state.check();
    if (InMemoryLateChargeStore.due(c, state.now())) {
      programs.add(LateChargeRig.SCAN);
    } else if (InMemoryLateChargeStore.claimable(c, state.now())) {
      programs.add(LateChargeRig.WAKEUP);
    }
    boolean refundDue =
        state.refunds().rows().values().stream()
            .anyMatch(s -> InMemoryRefundStore.due(s.row(), state.now()));
    if (refundDue) {
      programs.add(LateChargeRig.REFUND_SCAN);
    }
    return programs;
  }

  private List<Move<LateChargeModelState>> worldMoves(LateChargeModelState state) {
    List<Move<LateChargeModelState>> moves = new ArrayList<>();
    state
        .wallet()
        .orders()
        .forEach(
            (trade, c) -> {
              if (c.state() == OrderState.PROCESSING) {
                moves.add(
                    world(
                        state,
                        "wallet settles " + trade + ": charged late",
                        w -> w.wallet().settleCharge(trade, true)));
                moves.add(
                    world(
                        state,
                        "wallet settles " + trade + ": declined",
                        w -> w.wallet().settleCharge(trade, false)));
              }
            });
    state
        .wallet()
        .refunds()
        .forEach(
            (number, r) -> {
              if (r.state() == RefundState.PROCESSING) {
                moves.add(
                    world(
                        state,
                        "wallet settles " + number + ": refunded",
                        w -> w.wallet().settleRefund(number, true)));
                moves.add(
                    world(
                        state,
                        "wallet settles " + number + ": refused",
                        w -> w.wallet().settleRefund(number, false)));
              }
            });
    return moves;
  }

  private Move<LateChargeModelState> world(
      LateChargeModelState state, String label, Consumer<LateChargeWorld> change) {
    LateChargeWorld world = LateChargeWorld.of(state, setup.fencing());
    change.accept(world);
    LateChargeModelState after = state.withWorld(world);
    return new Move<>(
        label, after, LateChargeInvariants.step(state, after, List.of(), LeaseRule.OFF));
  }

  /** To the check's next check time or a refund's next retry time, whichever comes first. */
  private static Optional<Move<LateChargeModelState>> clockMove(LateChargeModelState state) {
    LateChargeCheck c = state.check();
    Stream<Instant> check = c.isTerminal() ? Stream.empty() : Stream.of(c.nextCheckTime());
    Stream<Instant> refunds =
        state.refunds().rows().values().stream()
            .map(InMemoryRefundStore.Stored::row)
            .filter(r -> !r.isTerminal())
            .map(RefundOrder::nextRetryTime);
    return Stream.concat(check, refunds)
        .filter(t -> t != null && t.isAfter(state.now()))
        .min(Instant::compareTo)
        .map(t -> Move.clean("clock -> " + Show.time(t), state.at(t)));
  }

  @Override
  public List<String> check(LateChargeModelState state) {
    return LateChargeInvariants.state(state);
  }

  @Override
  public String describe(LateChargeModelState s) {
    LateChargeCheck c = s.check();
    String refunds =
        s.refunds().rows().values().stream()
            .map(r -> Show.refund(r.row()))
            .collect(Collectors.joining(", "));
    String wallet =
        Stream.concat(
                s.wallet().orders().entrySet().stream()
                    .map(e -> e.getKey() + ":" + e.getValue().state()),
                s.wallet().refunds().entrySet().stream()
                    .map(e -> e.getKey() + ":" + e.getValue().state()))
            .collect(Collectors.joining(","));
    return String.format(
        "t=%s | %s | %s | wallet[%s]",
        Show.time(s.now()), Show.check(c), refunds.isEmpty() ? "no refund" : refunds, wallet);
  }

  // ---- the rig of the worker steps ------------------------------------------------------------

  @Override
  public Instant now(LateChargeModelState state) {
    return state.now();
  }

  @Override
  public LateChargeWorld world(LateChargeModelState state) {
    return LateChargeWorld.of(state, setup.fencing());
  }

  @Override
  public Consumer<Session> program(WorkerState worker, LateChargeWorld world) {
    return LateChargeRig.program(worker, world);
  }

  @Override
  public List<String> outcomes(LateChargeWorld world, Pending call) {
    return world.outcomes(call);
  }

  @Override
  public void actingAs(LateChargeWorld world, WorkerState worker) {
    world.actingAs(worker.runId());
  }

  @Override
  public LateChargeModelState after(
      LateChargeModelState before, LateChargeWorld world, int index, WorkerState worker) {
    return before.withWorld(world).withWorker(index, worker);
  }

  @Override
  public List<String> check(
      LateChargeModelState before,
      LateChargeModelState after,
      LateChargeWorld world,
      WorkerState w) {
    return LateChargeInvariants.step(before, after, world.writes(), setup.leaseRule());
  }
}
