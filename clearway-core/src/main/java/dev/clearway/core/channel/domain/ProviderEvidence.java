package dev.clearway.core.channel.domain;

import dev.clearway.core.channel.spi.PspOutcome;
import java.time.Instant;

/**
 * One observation of a PSP about an attempt: never card data, only the PSP's status, its object id,
 * the request id and a hash of the raw response.
 *
 * @param operation what produced it: CREATE, REPLAY, RETRIEVE, CLOSE, WEBHOOK
 */
public record ProviderEvidence(
    EvidenceSource source,
    String operation,
    PspOutcome outcome,
    String policyVersion,
    Instant observedAt) {}
