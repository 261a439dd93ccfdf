package dev.clearway.service.refund;

import dev.clearway.boot.BrokerWakeupRoute;
import dev.clearway.boot.BrokerWakeups;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.service.latecharge.LateChargeEngine;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With a broker ({@code clearway.broker.url}), the broker's consumer advances refund orders (kind
 * {@code refund}) and late-charge checks (kind {@code latecharge}) whose wake-ups are due, through
 * the same entry as their scanners: the advance claims the row and re-reads it, so a stale,
 * duplicated or early wake-up finds nothing to do.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "clearway.broker", name = "url")
public class RefundBrokerRoutes {

  @Bean
  BrokerWakeupRoute clearwayRefundWakeupRoute(RefundEngine refunds) {
    return new BrokerWakeupRoute(
        BrokerWakeups.REFUND,
        id -> refunds.advancer().advance(id, Trigger.unclaimed(TriggerSource.WAKEUP)));
  }

  @Bean
  BrokerWakeupRoute clearwayLateChargeWakeupRoute(LateChargeEngine checks) {
    return new BrokerWakeupRoute(
        BrokerWakeups.LATE_CHARGE,
        id -> checks.checker().advance(id, Trigger.unclaimed(TriggerSource.WAKEUP)));
  }
}
