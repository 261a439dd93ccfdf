package dev.clearway.lab.serve;

import dev.clearway.boot.ChannelAccounts;
import dev.clearway.boot.metrics.MicrometerWechatKeyEvents;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.lab.channel.SimChannels;
import dev.clearway.psp.wechat.WechatKeyEvents;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.wechat.Payer;
import dev.clearway.sim.psp.wechat.PayerChoice;
import dev.clearway.store.Database;
import dev.clearway.store.channel.JdbcChannelStores;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code serve --channels}: two simulated Stripe-style PSP accounts in two failure domains (method
 * {@code card}) and one WeChat Pay-style account (method {@code wallet}), their webhooks addressed
 * to {@code /v1/channels/{id}/webhooks} of this service. The channel layer itself is the service's
 * own Spring configuration, exactly as an embedding application gets it: this class only supplies
 * the accounts, their adapters and the payment method. The WeChat Pay adapter reports an unknown
 * platform serial to {@code clearway_wechat_unknown_serial_total}, registered at zero at start.
 */
final class ServeChannels {
  private ServeChannels() {}

  /** Starts the simulated accounts; the caller closes them after the service. */
  static SimChannels start(Database db, int port, WechatKeyEvents keyEvents) {
    SimChannels sims =
        new SimChannels(
            JdbcChannelStores.create(db.dataSource(), db.dialect()),
            List.of(
                new SimChannels.AccountSpec(1, "psp:stripe-a", 1, new PspFaults(1)),
                new SimChannels.AccountSpec(2, "psp:stripe-b", 2, new PspFaults(2)),
                SimChannels.AccountSpec.wechat(
                    3,
                    "psp:wechat-a",
                    3,
                    new PspFaults(3),
                    new SimChannels.WechatCustomer(
                        PayerChoice.always(Payer.PAYS), Duration.ofSeconds(2)))),
            Duration.ofMillis(1_500),
            Duration.ofSeconds(3),
            keyEvents);
    sims.sims()
        .forEach(
            (id, sim) ->
                sim.webhookTarget(
                    URI.create("http://127.0.0.1:" + port + "/v1/channels/" + id + "/webhooks")));
    return sims;
  }

  /**
   * Once the service runs: the WeChat Pay accounts' unknown-serial counters registered at zero, and
   * the relay's events (those before included) counted in the service's meter registry. Nothing
   * without channels ({@code sims} null).
   */
  static void bindMetrics(
      SimChannels sims, WechatKeyEventsRelay relay, ConfigurableApplicationContext context) {
    if (sims == null) {
      return;
    }
    MeterRegistry registry = context.getBean(MeterRegistry.class);
    sims.wechatMerchants()
        .values()
        .forEach(mchid -> MicrometerWechatKeyEvents.register(registry, mchid));
    relay.bind(new MicrometerWechatKeyEvents(registry));
  }

  /** The beans the channel configuration asks of its application. */
  static Map<String, Object> beans(SimChannels sims) {
    Map<String, Object> beans = new LinkedHashMap<>();
    beans.put("channelAccounts", new ChannelAccounts(sims.accounts()));
    beans.put("adapterRegistry", (AdapterRegistry) sims::adapter);
    beans.put("paymentMethods", PaymentMethods.fixed("card", "pm_card_visa"));
    return beans;
  }
}
