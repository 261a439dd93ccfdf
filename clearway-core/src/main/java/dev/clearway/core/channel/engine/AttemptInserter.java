package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.decision.CreateRequestHash;
import dev.clearway.core.channel.decision.FailoverDecision;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PaymentParty;
import java.time.Instant;
import java.util.Optional;

/**
 * Inserts a new attempt of an order with its recovery task (one transaction in the store): its key
 * and create-request hash fixed for its lifetime, its task pinned to the order's policy version and
 * held by the creating call until the create's own timeout has passed.
 */
final class AttemptInserter {

  private final ChannelContext ctx;
  private final AttemptStore attempts;

  AttemptInserter(ChannelContext ctx) {
    this.ctx = ctx;
    this.attempts = ctx.stores().attempts();
  }

  /** Empty when the order is closed or another attempt of it is live: the caller re-reads. */
  Optional<Attempt> insert(
      PaymentOrder order,
      ChannelAccount account,
      Attempt previous,
      FailoverDecision guard,
      String token,
      PaymentParty party,
      AttemptOrigin origin,
      String lease,
      Instant now) {
    Attempt.Money money = new Attempt.Money(order.amount(), order.currency(), token, party);
    NewAttempt attempt =
        new NewAttempt(
            order.tradeOrderNo(),
            account.id(),
            origin,
            previous == null ? null : previous.id(),
            String.join(",", guard.excludedDomains()),
            money,
            id -> {
              String key = ChannelGateway.keyFor(id);
              CreatePayment request =
                  new CreatePayment(
                      key,
                      order.tradeOrderNo(),
                      money.amount(),
                      money.currency(),
                      token,
                      "order " + order.tradeOrderNo(),
                      money.party());
              return new String[] {key, CreateRequestHash.of(account.id(), request)};
            });
    String version = ctx.policies().versionFor(order.tradeOrderNo());
    String firstStrategy =
        ctx.policies()
            .rule(version, account.channel(), order.paymentMethod(), Operation.CREATE)
            .map(r -> AttemptRecorder.strategyFor(r, 0))
            .orElse(RecoveryStrategy.WAIT_WEBHOOK)
            .name();
    // Held by this call until the create's own timeout has passed; then the recovery worker may
    // take it over, so a crash between insert and answer is found.
    return attempts.insertAttempt(
        attempt, new NewTask(firstStrategy, now.plus(ctx.createGrace()), version, lease), now);
  }
}
