package dev.clearway.lab.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Channel chaos over real HTTP, Stripe-style (card) and WeChat Pay v3-style (wallet) accounts:
 * outages with failover, UNKNOWN results that must not fail over, lying PSPs, duplicate webhooks
 * racing the recovery workers, a crashed worker's leases, WeChat customers who never pay and whose
 * orders are closed. The invariants are read from the database and the PSP ledgers.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ChannelChaosTest {

  @Test
  void outagesFailOverOnlyAfterDefiniteFailuresAndNothingIsChargedTwice() throws Exception {
    ChannelChaosReport report =
        new ChannelChaos(
                TestDatabase.get().dataSource(), TestDatabase.get().dialect(), 400, 7, System.err)
            .run();
    String json = report.toJson();
    System.out.println(json);
    Map<String, Long> counts = report.counts();
    JsonNode line = JsonMapper.builder().build().readTree(json);
    assertThat(line.get("scenario").stringValue()).isEqualTo("channels");
    assertThat(line.get("payments").intValue()).isEqualTo(400);
    assertThat(line.get("seed").longValue()).isEqualTo(7);
    assertThat(line.get("violations").intValue()).isZero();
    counts.forEach((k, v) -> assertThat(line.get(k).longValue()).as(k).isEqualTo(v));
    assertThat(line.get("seconds").isNumber()).isTrue();

    assertThat(report.violations()).isEmpty();
    // The engine itself caught every charge on a failed attempt: the end-of-run reconciliation
    // against the PSP ledgers (the settlement reports' stand-in) found nothing left.
    assertThat(counts.getOrDefault("reconciledCharges", 0L)).isZero();
    assertThat(counts.getOrDefault("paymentErrors", 0L)).isZero();
    assertThat(counts.get("failovers")).isPositive();
    assertThat(counts.get("resolvedFromUnknown")).isPositive();
    assertThat(counts.getOrDefault("compensation_REFUNDED", 0L))
        .isEqualTo(counts.getOrDefault("chargedAfterFailure", 0L));
    assertThat(counts.get("leasesAbandoned")).isPositive();
    assertThat(report.metrics().get("clearway.channel.failovers")).isPositive();
    assertThat(report.metrics().get("unknownAnswers")).isPositive();

    for (String channel : new String[] {"stripe", "wechat"}) {
      assertThat(counts.get(channel + "_failovers")).as(channel + " failovers").isPositive();
      assertThat(counts.get(channel + "_attempts_SUCCEEDED_INITIAL"))
          .as(channel + " succeeded attempts")
          .isPositive();
      assertThat(counts.get(channel + "_attempts_SUCCEEDED_FAILOVER"))
          .as(channel + " succeeded after a failover")
          .isPositive();
      assertThat(counts.getOrDefault(channel + "_compensation_REFUNDED", 0L))
          .as(channel + " charges after failure refunded")
          .isEqualTo(counts.getOrDefault(channel + "_chargedAfterFailure", 0L));
      assertThat(counts.getOrDefault(channel + "_webhooks_refused", 0L)).isZero();
    }
    assertThat(counts.get("payments_wallet")).isPositive();
    // Customers who never pay: their orders were closed at the deadline.
    assertThat(counts.get("closes_CLOSED")).isPositive();
  }
}
