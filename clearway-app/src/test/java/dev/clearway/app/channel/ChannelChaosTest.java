package dev.clearway.app.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import java.io.OutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/**
 * Channel chaos over real HTTP: outages with failover, UNKNOWN results that must not fail over,
 * lying PSPs, duplicate webhooks racing the recovery workers, a crashed worker's leases. The
 * invariants are read from the database and the PSP ledgers.
 */
class ChannelChaosTest {

  @Test
  void outagesFailOverOnlyAfterDefiniteFailuresAndNothingIsChargedTwice() throws Exception {
    ChannelChaos.Report report =
        new ChannelChaos(
                TestDatabase.get().dataSource(),
                400,
                7,
                new PrintStream(OutputStream.nullOutputStream()))
            .run();

    assertThat(report.violations()).isEmpty();
    assertThat(report.counts().get("failovers")).isPositive();
    assertThat(report.counts().get("resolvedFromUnknown")).isPositive();
    assertThat(report.counts().getOrDefault("compensation_REFUNDED", 0L))
        .isEqualTo(report.counts().getOrDefault("chargedAfterFailure", 0L));
    assertThat(report.counts().get("leasesAbandoned")).isPositive();
    assertThat(report.metrics().get("clearway.channel.failovers")).isPositive();
    assertThat(report.metrics().get("unknownAnswers")).isPositive();
  }
}
