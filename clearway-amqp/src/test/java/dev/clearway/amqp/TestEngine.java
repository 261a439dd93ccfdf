package dev.clearway.amqp;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Advancer;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;

/** The flow engine on the embedded PostgreSQL with the given wallet and wake-ups; no threads. */
final class TestEngine {
  final JdbcFlowStore store = TestDatabase.get().store();
  final Clock clock = Clock.systemUTC();
  final EngineConfig config = EngineConfig.production();
  final LeaseTokens leases = new LeaseTokens("amqp-test", clock, config);
  final Advancer advancer;
  final PaymentService payments;
  final Scanner scanner;

  TestEngine(WalletGateway wallet, BusinessGateway business, WakeupScheduler wakeups) {
    this.advancer =
        new Advancer(store, wallet, business, wakeups, EngineEvents.NONE, leases, config, clock);
    this.payments = new PaymentService(store, advancer, leases, clock);
    this.scanner = new Scanner(store, leases, config, EngineEvents.NONE, clock);
  }

  /** What the broker's consumer calls: claim, re-read, step. */
  WakeupHandler wakeupHandler() {
    return id -> advancer.advance(id, Trigger.unclaimed(TriggerSource.WAKEUP));
  }

  /** One scanner round, each due flow advanced in this thread. */
  int scan() {
    return scanner.runRound(advancer::advance);
  }
}
