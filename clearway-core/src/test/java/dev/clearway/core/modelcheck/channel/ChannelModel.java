package dev.clearway.core.modelcheck.channel;

import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
import dev.clearway.core.modelcheck.Explorer;
import dev.clearway.core.modelcheck.Explorer.Move;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.Session;
import dev.clearway.core.modelcheck.Show;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.WorkerSteps;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryChannelStore;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import dev.clearway.core.modelcheck.world.PspLedger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The attempt / recovery-task machine as the explorer sees it: the create's response path (which
 * holds the new attempt's task until the create's grace ends), two or more recovery workers (real
 * {@link dev.clearway.core.channel.engine.RecoveryWorker} rounds that claim the task with a lease,
 * replay or retrieve, and record through the real {@link
 * dev.clearway.core.channel.engine.AttemptRecorder}), authoritative webhooks (sent at most twice,
 * so one is a duplicate), the customer finishing a payment that waited for them, and the clock
 * moving to the task's due time, its lease expiry, or the policy's maximum unknown age.
 */
public final class ChannelModel
    implements Explorer.Model<ChannelModelState>, WorkerSteps.Rig<ChannelModelState, ChannelWorld> {

  public record Setup(ChannelStage stage, Fencing fencing, int workers, LeaseRule leaseRule) {}

  private static final String CREATOR = ChannelRig.CREATOR;
  private static final String HOOK = "webhook";
  private static final int WEBHOOKS = 2;

  private final Setup setup;

  public ChannelModel(Setup setup) {
    this.setup = setup;
  }

  @Override
  public String name() {
    return "attempt machine from "
        + setup.stage()
        + " ("
        + setup.fencing()
        + ", "
        + setup.workers()
        + " recovery workers)";
  }

  @Override
  public List<ChannelModelState> initial() {
    List<WorkerState> workers = new ArrayList<>();
    workers.add(WorkerState.idle(CREATOR));
    for (int i = 1; i <= setup.workers(); i++) {
      workers.add(WorkerState.idle("W" + i));
    }
    workers.add(WorkerState.idle(HOOK));
    return setup.stage().initial(List.copyOf(workers), 0);
  }

  @Override
  public List<Move<ChannelModelState>> moves(ChannelModelState state) {
    List<Move<ChannelModelState>> moves = new ArrayList<>();
    for (int i = 0; i < state.workers().size(); i++) {
      WorkerState w = state.workers().get(i);
      if (w.busy()) {
        moves.addAll(WorkerSteps.moves(this, state, i, w));
      } else if (isRecoveryWorker(w)
          && InMemoryChannelStore.due(state.store().task(), state.now())) {
        moves.addAll(WorkerSteps.moves(this, state, i, w.start(ChannelRig.RECOVERY)));
      } else if (w.name().equals(HOOK) && webhookDue(state.psp())) {
        PspLedger psp = state.psp();
        String body = "evt-" + (psp.webhooks() + 1) + " " + psp.state() + " cwa1";
        ChannelModelState sent = state.withPsp(psp.webhookSent());
        moves.addAll(WorkerSteps.moves(this, sent, i, w.start(ChannelRig.WEBHOOK + body)));
      }
    }
    if (state.psp().state() == PspLedger.State.PENDING) {
      moves.add(customer(state, true));
      moves.add(customer(state, false));
    }
    clockMove(state).ifPresent(moves::add);
    return moves;
  }

  /**
   * W1, W2, ...: the recovery workers (the creator is a worker too, with a lease, but no round).
   */
  private static boolean isRecoveryWorker(WorkerState w) {
    return w.name().matches("W\\d+");
  }

  private static boolean webhookDue(PspLedger psp) {
    return psp.state() != PspLedger.State.NONE && psp.webhooks() < WEBHOOKS;
  }

  private Move<ChannelModelState> customer(ChannelModelState state, boolean paid) {
    ChannelWorld world = ChannelWorld.of(state, setup.fencing());
    world.psp().customerFinishes(paid);
    ChannelModelState after = state.withWorld(world);
    return new Move<>(
        "the customer " + (paid ? "pays" : "abandons"),
        after,
        ChannelInvariants.step(state, after, List.of(), LeaseRule.OFF));
  }

  /** To the task's due time, just past its lease, or the attempt's maximum unknown age. */
  private static Optional<Move<ChannelModelState>> clockMove(ChannelModelState state) {
    RecoveryTask task = state.store().task();
    if (state.store().attempt().isFinal() && !state.anyBusy()) {
      return Optional.empty();
    }
    List<Instant> marks = new ArrayList<>();
    marks.add(
        state.store().attempt().createdAt().plus(ChannelRig.POLICY.rules().get(0).maxUnknownAge()));
    if (task.status() == TaskStatus.READY) {
      marks.add(task.dueAt());
    }
    if (task.status() == TaskStatus.LEASED) {
      marks.add(task.leaseUntil().plusMillis(1));
    }
    return marks.stream()
        .filter(t -> t.isAfter(state.now()))
        .min(Instant::compareTo)
        .map(t -> Move.clean("clock -> " + Show.time(t), state.at(t)));
  }

  @Override
  public List<String> check(ChannelModelState state) {
    return ChannelInvariants.state(state);
  }

  @Override
  public String describe(ChannelModelState s) {
    return String.format(
        "t=%s | %s | %s | psp %s (webhooks sent %d)%s",
        Show.time(s.now()),
        Show.attempt(s.store().attempt()),
        Show.task(s.store().task()),
        s.psp().state(),
        s.psp().webhooks(),
        s.store().compensations() > 0 ? " | compensation opened" : "");
  }

  // ---- the rig of the worker steps ------------------------------------------------------------

  @Override
  public Instant now(ChannelModelState state) {
    return state.now();
  }

  @Override
  public ChannelWorld world(ChannelModelState state) {
    return ChannelWorld.of(state, setup.fencing());
  }

  @Override
  public Consumer<Session> program(WorkerState worker, ChannelWorld world) {
    return ChannelRig.program(worker, world);
  }

  @Override
  public List<String> outcomes(ChannelWorld world, Pending call) {
    return world.outcomes(call);
  }

  @Override
  public void actingAs(ChannelWorld world, WorkerState worker) {
    world.store().actingAs(worker.name().startsWith("W") ? worker.runId() : worker.name());
  }

  @Override
  public ChannelModelState after(
      ChannelModelState before, ChannelWorld world, int index, WorkerState worker) {
    return before.withWorld(world).withWorker(index, worker);
  }

  @Override
  public List<String> check(
      ChannelModelState before, ChannelModelState after, ChannelWorld world, WorkerState w) {
    return ChannelInvariants.step(before, after, world.store().writes(), setup.leaseRule());
  }
}
