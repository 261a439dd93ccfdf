package dev.clearway.core.channel.spi;

/**
 * What an adapter can do to recover an attempt whose result is not known. The core never guesses: a
 * recovery strategy that needs a capability the channel lacks is refused when the policy is
 * validated.
 */
public record RecoveryCapabilities(
    boolean supportsIdempotentReplay,
    boolean supportsRetrieveByProviderId,
    boolean supportsSearchByMerchantReference,
    boolean webhookAuthoritative,
    boolean settlementReportAvailable) {}
