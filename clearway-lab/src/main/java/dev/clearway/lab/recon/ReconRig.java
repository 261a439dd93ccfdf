package dev.clearway.lab.recon;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.boot.channel.ChannelLayer;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.StaticRecoveryPolicies;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.lab.channel.SimChannels;
import dev.clearway.lab.channel.WebhookReceiver;
import dev.clearway.psp.health.CircuitBreakerHealth;
import dev.clearway.service.refund.RefundEngine;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.sim.psp.wechat.Payer;
import dev.clearway.sim.psp.wechat.PayerChoice;
import dev.clearway.sim.psp.wechat.WechatSimServer;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.refund.JdbcRefundStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * The running parts of the reconciliation chaos run: a Stripe-style card account and a WeChat Pay
 * v3-style wallet account served over real HTTP ({@link SimChannels}), the channel layer with its
 * recovery and compensation workers, the flow engine paying through it, the simulated business, and
 * the after-sales refund engine. Webhooks are duplicated and delayed; nothing else fails online:
 * every difference the run injects is one only the statement shows.
 */
final class ReconRig implements AutoCloseable {

  static final long CARD_ACCOUNT = 11;
  static final long WALLET_ACCOUNT = 31;

  private final SimChannels channels;
  private final ChannelStores stores;
  private final ChannelContext ctx;
  private final ChannelLayer layer;
  private final EngineAssembly engine;
  private final RefundEngine refunds;
  private final SimBusiness business;
  private final WebhookReceiver receiver;
  private final JdbcFlowStore flows;
  private final EngineConfig config = EngineConfig.compressed();
  private final Map<String, Boolean> walletTrades = new ConcurrentHashMap<>();

  ReconRig(DataSource dataSource, SqlDialect dialect, JdbcFlowStore flows, long seed, Clock clock) {
    this.flows = flows;
    this.stores = JdbcChannelStores.create(dataSource, dialect);
    this.channels =
        new SimChannels(stores, specs(seed), Duration.ofMillis(100), Duration.ofSeconds(2));
    AtomicReference<EngineAssembly> flowEngine = new AtomicReference<>();
    this.ctx =
        new ChannelContext(
            stores,
            channels::adapter,
            new CircuitBreakerHealth(20, 50f, Duration.ofSeconds(2)),
            new StaticRecoveryPolicies(ReconPolicy.policy()),
            new PacedRateLimiter(),
            ChannelEvents.NONE,
            clock,
            trade ->
                OrderNumbers.flowIdOf(trade)
                    .ifPresent(
                        id -> {
                          EngineAssembly e = flowEngine.get();
                          if (e != null) {
                            e.runtime().wake(id, TriggerSource.WAKEUP);
                          }
                        }),
            Duration.ofSeconds(3));
    this.layer = new ChannelLayer(ctx, methods(), "recon-chaos", 8).start();
    this.business = new SimBusiness(FaultPlan.none(), clock);
    this.engine =
        new EngineAssembly(
                flows,
                layer.gateway(),
                business,
                EngineEvents.NONE,
                config,
                clock,
                "recon-chaos",
                8,
                w -> w)
            .start();
    flowEngine.set(engine);
    this.refunds =
        new RefundEngine(
                new JdbcRefundStore(dataSource, dialect),
                flows,
                layer.gateway(),
                RefundEvents.NONE,
                config,
                clock,
                "recon-chaos-refunds",
                4,
                2)
            .start();
    this.receiver = new WebhookReceiver(layer.intake());
    channels.sims().forEach((id, sim) -> sim.webhookTarget(receiver.target(id)));
  }

  private static List<SimChannels.AccountSpec> specs(long seed) {
    PspFaults card = new PspFaults(seed).webhookDuplicateRate(0.3).webhookDelayMaxMillis(300);
    PspFaults wallet = new PspFaults(seed + 1).webhookDuplicateRate(0.3).webhookDelayMaxMillis(300);
    return List.of(
        new SimChannels.AccountSpec(CARD_ACCOUNT, "psp:card", 1, card),
        SimChannels.AccountSpec.wechat(
            WALLET_ACCOUNT,
            "psp:wallet",
            1,
            wallet,
            new SimChannels.WechatCustomer(
                PayerChoice.always(Payer.PAYS), Duration.ofMillis(300))));
  }

  /** Wallet trades pay by WeChat Pay, the others by a card that succeeds. */
  private PaymentMethods methods() {
    return request ->
        Boolean.TRUE.equals(walletTrades.get(request.tradeOrderNo()))
            ? new PaymentMethods.Choice("wallet", "wallet")
            : new PaymentMethods.Choice("card", "pm_card_visa");
  }

  /** Says which method the trade pays with; before it is paid. */
  void paysBy(String tradeOrderNo, boolean wallet) {
    walletTrades.put(tradeOrderNo, wallet);
  }

  StripeSimServer card() {
    return (StripeSimServer) channels.sim(CARD_ACCOUNT);
  }

  WechatSimServer wallet() {
    return (WechatSimServer) channels.sim(WALLET_ACCOUNT);
  }

  SimChannels channels() {
    return channels;
  }

  ChannelContext ctx() {
    return ctx;
  }

  EngineAssembly engine() {
    return engine;
  }

  RefundEngine refunds() {
    return refunds;
  }

  SimBusiness business() {
    return business;
  }

  JdbcFlowStore flows() {
    return flows;
  }

  EngineConfig config() {
    return config;
  }

  @Override
  public void close() {
    receiver.close();
    refunds.close();
    engine.close();
    layer.close();
    channels.close();
  }
}
