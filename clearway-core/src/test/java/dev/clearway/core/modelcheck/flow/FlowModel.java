package dev.clearway.core.modelcheck.flow;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.modelcheck.Explorer;
import dev.clearway.core.modelcheck.Explorer.Move;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.Session;
import dev.clearway.core.modelcheck.Show;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.WorkerSteps;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryFlowStore;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import dev.clearway.core.modelcheck.world.BusinessLedger;
import dev.clearway.core.modelcheck.world.WalletLedger.OrderState;
import dev.clearway.core.modelcheck.world.WalletLedger.RefundState;
import dev.clearway.core.review.CommandKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The flow state machine as the explorer sees it. Workers run the real {@link
 * dev.clearway.core.flow.engine.Advancer} (through the payment entry, wake-ups and scanner rounds)
 * and the real {@link dev.clearway.core.flow.engine.CancelService}; every store and wallet or
 * business call is a yield point; the clock moves in steps to the next lease expiry, retry time,
 * deadline or grace; the wallet settles PROCESSING orders and refunds; the business may be granted
 * to another order; a person approves RESUME, CONFIRM_BIZ_SUCCESS or FORCE_REFUND on a flow under
 * review.
 */
public final class FlowModel
    implements Explorer.Model<FlowState>, WorkerSteps.Rig<FlowState, FlowWorld> {

  /**
   * @param fencing what the in-memory store refuses
   * @param workers how many engine workers (the first one sends the payment request)
   * @param leaseRule whether a write without the lease counts as a violation
   * @param commands how many manual commands people may approve in one run
   */
  public record Setup(
      FlowStage stage, Fencing fencing, int workers, LeaseRule leaseRule, int commands) {}

  private static final String CLIENT = "client";
  private static final String PERSON = "person";

  private final Setup setup;

  public FlowModel(Setup setup) {
    this.setup = setup;
  }

  @Override
  public String name() {
    return "flow machine from "
        + setup.stage()
        + " ("
        + setup.fencing()
        + ", "
        + setup.workers()
        + " workers)";
  }

  @Override
  public List<FlowState> initial() {
    List<WorkerState> workers = new ArrayList<>();
    for (int i = 1; i <= setup.workers(); i++) {
      workers.add(WorkerState.idle("W" + i));
    }
    workers.add(WorkerState.idle(CLIENT));
    return setup.stage().initial(List.copyOf(workers));
  }

  @Override
  public List<Move<FlowState>> moves(FlowState state) {
    List<Move<FlowState>> moves = new ArrayList<>();
    for (int i = 0; i < state.workers().size(); i++) {
      WorkerState w = state.workers().get(i);
      if (w.busy()) {
        moves.addAll(WorkerSteps.moves(this, state, i, w));
      } else {
        for (String program : startable(state, w)) {
          moves.addAll(WorkerSteps.moves(this, state, i, w.start(program)));
        }
      }
    }
    moves.addAll(worldMoves(state));
    moves.addAll(commandMoves(state));
    clockMove(state).ifPresent(moves::add);
    return moves;
  }

  /** Programs an idle worker may start now; one that could only find the flow busy is left out. */
  private static List<String> startable(FlowState state, WorkerState w) {
    PayFlow f = state.flow().orElse(null);
    if (f == null) {
      return List.of();
    }
    if (w.name().equals(CLIENT)) {
      boolean open = f.status() == FlowStatus.WAIT_PAY || f.status() == FlowStatus.PAYING;
      return w.runs() == 0 && open && !f.isCancelRequested() ? List.of(FlowRig.CANCEL) : List.of();
    }
    // When the row is due, a wake-up and a scanner round claim it with the same lease and run the
    // same advance: only the scanner is explored. A wake-up alone can take a free row not yet due.
    if (InMemoryFlowStore.due(f, state.now())) {
      return List.of(FlowRig.SCAN);
    }
    return InMemoryFlowStore.claimable(f, state.now()) ? List.of(FlowRig.WAKEUP) : List.of();
  }

  // ---- the world on its own -------------------------------------------------------------------

  private List<Move<FlowState>> worldMoves(FlowState state) {
    List<Move<FlowState>> moves = new ArrayList<>();
    state
        .wallet()
        .orders()
        .forEach(
            (trade, c) -> {
              if (c.state() == OrderState.PROCESSING) {
                moves.add(
                    world(
                        state,
                        "wallet settles " + trade + ": charged",
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
    BusinessLedger biz = state.business();
    if (!biz.foreignGrantUsed()
        && biz.grantedTo() == null
        && state.now().isBefore(FlowRig.PAYMENT.bizDeadline())) {
      moves.add(
          world(
              state,
              "business grants the goal to another order",
              w -> w.business().grantToOtherOrder()));
    }
    return moves;
  }

  private Move<FlowState> world(FlowState state, String label, Consumer<FlowWorld> change) {
    FlowWorld world = FlowWorld.of(state, setup.fencing());
    change.accept(world);
    FlowState after = state.withWorld(world);
    return new Move<>(label, after, FlowInvariants.step(state, after, List.of(), LeaseRule.OFF));
  }

  // ---- people ---------------------------------------------------------------------------------

  private List<Move<FlowState>> commandMoves(FlowState state) {
    PayFlow f = state.flow().orElse(null);
    if (f == null
        || f.isTerminal()
        || !f.reviewState().needsPerson()
        || state.commands() >= setup.commands()) {
      return List.of();
    }
    List<Move<FlowState>> moves = new ArrayList<>();
    moves.add(command(state, f, CommandKind.RESUME));
    if (f.status() == FlowStatus.PAYED) {
      BusinessLedger biz = state.business();
      boolean owned = biz.isOwnedBy(f.tradeOrderNo());
      boolean finallyNotOwned =
          (biz.grantedTo() != null && !owned)
              || (biz.grantedTo() == null
                  && !state.now().isBefore(f.bizDeadline().plus(FlowRig.CONFIG.deadlineGrace())));
      if (owned) {
        moves.add(command(state, f, CommandKind.CONFIRM_BIZ_SUCCESS));
      }
      if (finallyNotOwned) {
        moves.add(command(state, f, CommandKind.FORCE_REFUND));
      }
    }
    return moves;
  }

  private Move<FlowState> command(FlowState state, PayFlow f, CommandKind kind) {
    FlowWorld world = FlowWorld.of(state, setup.fencing());
    world.store().actingAs(PERSON);
    boolean applied = world.store().approveCommand(kind, f, state.now());
    FlowState after = state.withWorld(world).withCommand();
    return new Move<>(
        PERSON + " approves " + kind + (applied ? "" : " (refused)"),
        after,
        FlowInvariants.step(state, after, world.store().writes(), setup.leaseRule()));
  }

  // ---- time -----------------------------------------------------------------------------------

  /** The clock jumps to the next instant at which something becomes possible. */
  private static Optional<Move<FlowState>> clockMove(FlowState state) {
    PayFlow f = state.flow().orElse(null);
    if (f != null && f.isTerminal() && !state.anyBusy()) {
      return Optional.empty();
    }
    Instant deadline = FlowRig.PAYMENT.bizDeadline();
    List<Instant> marks = new ArrayList<>();
    marks.add(deadline);
    marks.add(deadline.plus(FlowRig.CONFIG.deadlineGrace()));
    if (f != null && !f.isTerminal()) {
      marks.add(f.nextRetryTime());
      marks.add(f.createdAt().plus(FlowRig.CONFIG.unpaidTimeout()));
    }
    return marks.stream()
        .filter(t -> t != null && t.isAfter(state.now()))
        .min(Instant::compareTo)
        .map(t -> Move.clean("clock -> " + Show.time(t), state.at(t)));
  }

  // ---- invariants and display ----------------------------------------------------------------

  @Override
  public List<String> check(FlowState state) {
    return FlowInvariants.state(state);
  }

  @Override
  public String describe(FlowState s) {
    String row = s.flow().map(Show::flow).orElse("no flow");
    String wallet =
        s.wallet().orders().entrySet().stream()
            .map(e -> e.getKey() + ":" + e.getValue().state())
            .collect(Collectors.joining(","));
    String refunds =
        s.wallet().refunds().entrySet().stream()
            .map(e -> e.getKey() + ":" + e.getValue().state())
            .collect(Collectors.joining(","));
    return String.format(
        "t=%s | %s | wallet[%s%s] | goal %s",
        Show.time(s.now()),
        row,
        wallet,
        refunds.isEmpty() ? "" : " " + refunds,
        s.business().grantedTo() == null
            ? "not granted"
            : "granted to " + s.business().grantedTo());
  }

  // ---- the rig of the worker steps ------------------------------------------------------------

  @Override
  public Instant now(FlowState state) {
    return state.now();
  }

  @Override
  public FlowWorld world(FlowState state) {
    return FlowWorld.of(state, setup.fencing());
  }

  @Override
  public Consumer<Session> program(WorkerState worker, FlowWorld world) {
    return FlowRig.program(worker, world);
  }

  @Override
  public List<String> outcomes(FlowWorld world, Pending call) {
    return world.outcomes(call);
  }

  @Override
  public void actingAs(FlowWorld world, WorkerState worker) {
    world.store().actingAs(worker.name().equals(CLIENT) ? CLIENT : worker.runId());
  }

  @Override
  public FlowState after(FlowState before, FlowWorld world, int index, WorkerState worker) {
    return before.withWorld(world).withWorker(index, worker);
  }

  @Override
  public List<String> check(FlowState before, FlowState after, FlowWorld world, WorkerState w) {
    return FlowInvariants.step(before, after, world.store().writes(), setup.leaseRule());
  }
}
