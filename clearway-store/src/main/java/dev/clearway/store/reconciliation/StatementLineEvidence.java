package dev.clearway.store.reconciliation;

import java.time.Instant;

/**
 * The parsed columns of the statement line a difference was found on (the raw text stays in the
 * store; it may carry the PSP's merchant number).
 */
public record StatementLineEvidence(
    long fileId,
    long lineNo,
    String kind,
    String tradeOrderNo,
    String refundOrderNo,
    String attemptKey,
    String pspReference,
    Long amountMinor,
    Long feeMinor,
    String currency,
    Instant at) {}
