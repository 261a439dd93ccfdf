package dev.clearway.sharding;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.port.AttemptStore.AttemptChange;
import dev.clearway.core.channel.port.AttemptStore.TaskChange;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Instant;

/**
 * The change that records an attempt SUCCEEDED on a query's confirmed success: its evidence names
 * the provider's payment and its recovery task is resolved.
 */
final class ConfirmedCharges {
  private ConfirmedCharges() {}

  /**
   * Attempt {@code a} charged as the provider's payment {@code providerRef}, learnt at {@code at}.
   */
  static AttemptChange succeeded(Attempt a, String providerRef, Instant at) {
    ProviderEvidence evidence =
        new ProviderEvidence(
            EvidenceSource.QUERY,
            "RETRIEVE",
            new PspOutcome(
                ResultCertainty.CONFIRMED_SUCCESS,
                "s",
                providerRef,
                null,
                false,
                false,
                "req_1",
                "a".repeat(64)),
            "v1",
            at);
    return new AttemptChange(
        a, AttemptStatus.SUCCEEDED, evidence, new TaskChange.Resolve(), false, null, null);
  }
}
