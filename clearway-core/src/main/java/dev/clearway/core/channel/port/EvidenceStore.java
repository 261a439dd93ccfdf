package dev.clearway.core.channel.port;

import dev.clearway.core.channel.domain.ProviderEvidence;

/**
 * Provider evidence about an attempt that is already final. Evidence that moves an attempt is
 * written by {@link AttemptStore#record}, in the attempt's own transaction.
 */
public interface EvidenceStore {

  /** Records evidence about a final attempt (a late webhook, a query): the attempt is not moved. */
  void appendEvidence(long attemptId, Long taskId, ProviderEvidence evidence);
}
