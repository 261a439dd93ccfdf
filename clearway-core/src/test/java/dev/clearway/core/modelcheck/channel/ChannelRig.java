package dev.clearway.core.modelcheck.channel;

import dev.clearway.core.channel.decision.CreateRequestHash;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.engine.AttemptRecorder;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.CreateExecutor;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.engine.StaticRecoveryPolicies;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.ChannelAccountStore;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelHealth;
import dev.clearway.core.channel.port.ChannelRefundStore;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.port.CompensationStore;
import dev.clearway.core.channel.port.EvidenceStore;
import dev.clearway.core.channel.port.PaymentOrderStore;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.channel.port.WebhookInbox;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.modelcheck.ReplayPorts;
import dev.clearway.core.modelcheck.Session;
import dev.clearway.core.modelcheck.Show;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryChannelStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The real channel code each worker runs, wired to yield points: the create's response path ({@link
 * CreateExecutor}), a {@link RecoveryWorker} round, and a webhook ({@link ChannelWebhookIntake}).
 * One order, one attempt on one account, one policy version whose rule alternates replay and
 * retrieve every 5 s and hands the attempt to a person after 60 s.
 */
final class ChannelRig {
  static final Instant T0 = Show.T0;
  static final long AMOUNT = 1_000;
  static final String TRADE = "t_7_1";
  static final ChannelAccount ACCOUNT =
      new ChannelAccount(1, "psp", "acct-1", "domain-a", Set.of("card"), 1, true);
  static final PaymentOrder ORDER = new PaymentOrder(TRADE, AMOUNT, "CNY", "card", false);
  static final Duration LEASE = Duration.ofSeconds(10);
  static final Duration GRACE = Duration.ofSeconds(10);
  static final RecoveryPolicy POLICY =
      new RecoveryPolicy(
          "v1",
          List.of(
              new PolicyRule(
                  new RuleMatch("psp", RuleMatch.ANY_METHOD, Operation.CREATE),
                  List.of(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
                  List.of(Duration.ofSeconds(5)),
                  Duration.ofSeconds(60),
                  1_000_000,
                  4)));
  static final Attempt CREATED = attempt(AttemptStatus.CREATED, 0);

  static final String CREATE = "create response";

  /** The name of the worker that creates the attempt (it holds the task until the grace ends). */
  static final String CREATOR = "Wpay";

  static final String RECOVERY = "recovery round";
  static final String WEBHOOK = "webhook ";

  private ChannelRig() {}

  /** The attempt as inserted, with the key and request hash of its create, in {@code status}. */
  static Attempt attempt(AttemptStatus status, long version) {
    Attempt bare =
        new Attempt(
            1,
            TRADE,
            1,
            ACCOUNT.id(),
            AttemptOrigin.INITIAL,
            null,
            "cwa1",
            null,
            null,
            status,
            ResultCertainty.UNKNOWN,
            null,
            false,
            false,
            new Attempt.Money(AMOUNT, "CNY", "card"),
            0,
            version,
            T0);
    String hash = CreateRequestHash.of(ACCOUNT.id(), CreateExecutor.request(bare));
    return new Attempt(
        1,
        TRADE,
        1,
        ACCOUNT.id(),
        AttemptOrigin.INITIAL,
        null,
        "cwa1",
        hash,
        null,
        status,
        ResultCertainty.UNKNOWN,
        null,
        false,
        false,
        bare.money(),
        0,
        version,
        T0);
  }

  /**
   * The creating call's lease of the new attempt's task (as {@code ChannelGateway.pay} inserts it,
   * LEASED to the call until the create's grace ends).
   */
  static String creationLease(WorkerState creator) {
    return creator.runId() + "/create";
  }

  /** The task LEASED to the creating call until {@code until} (its due time too). */
  static RecoveryTask createdTask(Instant until, String holder) {
    return new RecoveryTask(
        1,
        1,
        ACCOUNT.id(),
        RecoveryTask.TaskStatus.LEASED,
        RecoveryStrategy.IDEMPOTENT_REPLAY.name(),
        until,
        0,
        holder,
        until,
        POLICY.version(),
        0);
  }

  static RecoveryTask task(Instant due, long version) {
    return new RecoveryTask(
        1,
        1,
        ACCOUNT.id(),
        RecoveryTask.TaskStatus.READY,
        RecoveryStrategy.IDEMPOTENT_REPLAY.name(),
        due,
        0,
        null,
        null,
        POLICY.version(),
        version);
  }

  static Consumer<Session> program(WorkerState worker, ChannelWorld world) {
    return session -> {
      Clock clock = ReplayPorts.clock(session);
      InMemoryChannelStore live = world.store();
      ChannelStores stores =
          new ChannelStores(
              ReplayPorts.port(ChannelAccountStore.class, session, live),
              ReplayPorts.port(PaymentOrderStore.class, session, live),
              ReplayPorts.port(AttemptStore.class, session, live),
              ReplayPorts.port(RecoveryTaskStore.class, session, live),
              ReplayPorts.port(EvidenceStore.class, session, live),
              ReplayPorts.port(CompensationStore.class, session, live),
              ReplayPorts.port(ChannelRefundStore.class, session, live),
              ReplayPorts.port(WebhookInbox.class, session, live));
      PspAdapter psp =
          ReplayPorts.port(
              PspAdapter.class,
              session,
              world.psp(),
              Set.of("channel", "capabilities", "parseWebhook"));
      ChannelContext ctx =
          new ChannelContext(
              stores,
              id -> psp,
              ChannelHealth.ALWAYS,
              new StaticRecoveryPolicies(POLICY),
              new PacedRateLimiter(),
              ChannelEvents.NONE,
              clock,
              trade -> {},
              GRACE);
      String program = worker.program();
      if (program.equals(CREATE)) {
        new CreateExecutor(ctx, new AttemptRecorder(ctx))
            .create(CREATED, "card", "v1", creationLease(worker));
      } else if (program.equals(RECOVERY)) {
        new RecoveryWorker(
                ctx, new RecoveryWorker.Settings(worker.runId(), 1, LEASE), ChannelRig::rethrow)
            .runOnce(new DirectExecutor());
      } else {
        byte[] body = program.substring(WEBHOOK.length()).getBytes(StandardCharsets.UTF_8);
        new ChannelWebhookIntake(ctx).accept(ACCOUNT.id(), Map.of(), body);
      }
    };
  }

  /**
   * A task that threw is not survived here: a suspension goes on to the explorer, and any other
   * failure ends the worker (reported as a finding) instead of being logged.
   */
  private static void rethrow(String loop, Throwable cause) {
    if (cause instanceof Error e) {
      throw e;
    }
    if (cause instanceof RuntimeException e) {
      throw e;
    }
    throw new IllegalStateException(loop + " failed", cause);
  }

  /** Runs each task in the submitting thread: a recovery round's tasks run one after the other. */
  private static final class DirectExecutor extends AbstractExecutorService {
    @Override
    public void execute(Runnable command) {
      command.run();
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return false;
    }

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }
}
