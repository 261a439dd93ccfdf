package dev.clearway.core.modelcheck.refund;

import dev.clearway.core.modelcheck.Explorer;
import dev.clearway.core.modelcheck.Explorer.Move;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.Session;
import dev.clearway.core.modelcheck.Show;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.WorkerSteps;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import dev.clearway.core.modelcheck.world.WalletLedger.RefundState;
import dev.clearway.core.refund.domain.RefundOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The refund-order machine as the explorer sees it: workers run the real {@link
 * dev.clearway.core.refund.engine.RefundService} and {@link
 * dev.clearway.core.refund.engine.RefundAdvancer} (the request, wake-ups, refund scanner rounds), a
 * second merchant request competes for the same payment, the wallet answers every call in every way
 * its ledger allows and settles PROCESSING refunds, and the clock moves to the next lease expiry or
 * retry time.
 */
public final class RefundModel
    implements Explorer.Model<RefundModelState>, WorkerSteps.Rig<RefundModelState, RefundWorld> {

  /**
   * @param secondRequest whether a second merchant request (another key, same flow) takes part
   */
  public record Setup(
      RefundStage stage,
      Fencing fencing,
      int workers,
      LeaseRule leaseRule,
      boolean secondRequest) {}

  /** The second request holds a creation lease like any worker: its writes need it too. */
  private static final String CLIENT = "Wsecond";

  private final Setup setup;

  public RefundModel(Setup setup) {
    this.setup = setup;
  }

  @Override
  public String name() {
    return "refund machine from "
        + setup.stage()
        + " ("
        + setup.fencing()
        + ", "
        + setup.workers()
        + " workers"
        + (setup.secondRequest() ? ", a second request" : "")
        + ")";
  }

  @Override
  public List<RefundModelState> initial() {
    List<WorkerState> workers = new ArrayList<>();
    for (int i = 1; i <= setup.workers(); i++) {
      workers.add(WorkerState.idle("W" + i));
    }
    if (setup.secondRequest()) {
      workers.add(WorkerState.idle(CLIENT));
    }
    return setup.stage().initial(List.copyOf(workers));
  }

  @Override
  public List<Move<RefundModelState>> moves(RefundModelState state) {
    List<Move<RefundModelState>> moves = new ArrayList<>();
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
    state
        .wallet()
        .refunds()
        .forEach(
            (number, r) -> {
              if (r.state() == RefundState.PROCESSING) {
                moves.add(settle(state, number, true));
                moves.add(settle(state, number, false));
              }
            });
    clockMove(state).ifPresent(moves::add);
    return moves;
  }

  /** Programs an idle worker may start; a scanner round only when a refund is due. */
  private static List<String> startable(RefundModelState state, WorkerState w) {
    if (w.name().equals(CLIENT)) {
      return w.runs() == 0 ? List.of(RefundRig.SECOND_REQUEST) : List.of();
    }
    List<String> programs = new ArrayList<>();
    boolean anyDue = false;
    for (InMemoryRefundStore.Stored s : state.refunds().rows().values()) {
      RefundOrder r = s.row();
      if (InMemoryRefundStore.due(r, state.now())) {
        anyDue = true;
      } else if (InMemoryRefundStore.claimable(r, state.now())) {
        programs.add(RefundRig.WAKEUP + r.id());
      }
    }
    if (anyDue) {
      programs.add(RefundRig.SCAN);
    }
    return programs;
  }

  private Move<RefundModelState> settle(RefundModelState state, String number, boolean refunded) {
    RefundWorld world = RefundWorld.of(state, setup.fencing());
    world.wallet().settleRefund(number, refunded);
    RefundModelState after = state.withWorld(world);
    return new Move<>(
        "wallet settles " + number + ": " + (refunded ? "refunded" : "refused"),
        after,
        RefundInvariants.step(state, after, List.of(), LeaseRule.OFF));
  }

  private static Optional<Move<RefundModelState>> clockMove(RefundModelState state) {
    return state.refunds().rows().values().stream()
        .map(InMemoryRefundStore.Stored::row)
        .filter(r -> !r.isTerminal())
        .map(RefundOrder::nextRetryTime)
        .filter(t -> t != null && t.isAfter(state.now()))
        .min(Instant::compareTo)
        .map(t -> Move.clean("clock -> " + Show.time(t), state.at(t)));
  }

  @Override
  public List<String> check(RefundModelState state) {
    return RefundInvariants.state(state);
  }

  @Override
  public String describe(RefundModelState s) {
    String rows =
        s.refunds().rows().values().stream()
            .map(r -> Show.refund(r.row()))
            .collect(Collectors.joining(", "));
    String wallet =
        s.wallet().refunds().entrySet().stream()
            .map(e -> e.getKey() + ":" + e.getValue().state())
            .collect(Collectors.joining(","));
    return String.format(
        "t=%s | %s | wallet[%s]", Show.time(s.now()), rows.isEmpty() ? "no refund" : rows, wallet);
  }

  // ---- the rig of the worker steps ------------------------------------------------------------

  @Override
  public Instant now(RefundModelState state) {
    return state.now();
  }

  @Override
  public RefundWorld world(RefundModelState state) {
    return RefundWorld.of(state, setup.fencing());
  }

  @Override
  public Consumer<Session> program(WorkerState worker, RefundWorld world) {
    return RefundRig.program(worker, world);
  }

  @Override
  public List<String> outcomes(RefundWorld world, Pending call) {
    return world.outcomes(call);
  }

  @Override
  public void actingAs(RefundWorld world, WorkerState worker) {
    world.store().actingAs(worker.runId());
  }

  @Override
  public RefundModelState after(
      RefundModelState before, RefundWorld world, int index, WorkerState worker) {
    return before.withWorld(world).withWorker(index, worker);
  }

  @Override
  public List<String> check(
      RefundModelState before, RefundModelState after, RefundWorld world, WorkerState w) {
    return RefundInvariants.step(before, after, world.store().writes(), setup.leaseRule());
  }
}
