package dev.clearway.core.channel.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;

/**
 * One way to learn the outcome of an attempt whose result is UNKNOWN. Each strategy needs exactly
 * one capability of the channel; {@link #supportedBy} answers whether the channel has it, so that a
 * policy can never ask a channel for something it cannot do.
 */
public enum RecoveryStrategy {
  /** Send the very same create again with the same idempotency key and parameters. */
  IDEMPOTENT_REPLAY,
  /** Read the payment by the provider's id. */
  RETRIEVE,
  /** Find the payment by the merchant reference, then read it. */
  MERCHANT_REFERENCE_SEARCH,
  /** Wait for an authentic webhook; makes no call. */
  WAIT_WEBHOOK,
  /** Wait for the settlement report and reconciliation; makes no call. */
  RECONCILIATION;

  /** Whether a channel with {@code caps} can carry out this strategy. */
  public boolean supportedBy(RecoveryCapabilities caps) {
    return switch (this) {
      case IDEMPOTENT_REPLAY -> caps.supportsIdempotentReplay();
      case RETRIEVE -> caps.supportsRetrieveByProviderId();
      case MERCHANT_REFERENCE_SEARCH -> caps.supportsSearchByMerchantReference();
      case WAIT_WEBHOOK -> caps.webhookAuthoritative();
      case RECONCILIATION -> caps.settlementReportAvailable();
    };
  }

  /**
   * Whether a recovery run with this strategy sends a request to the PSP (counts on the budget).
   */
  public boolean callsPsp() {
    return switch (this) {
      case IDEMPOTENT_REPLAY, RETRIEVE, MERCHANT_REFERENCE_SEARCH -> true;
      case WAIT_WEBHOOK, RECONCILIATION -> false;
    };
  }
}
