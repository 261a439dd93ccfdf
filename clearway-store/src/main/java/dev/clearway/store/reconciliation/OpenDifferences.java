package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.domain.DifferenceClass;
import java.time.Instant;

/**
 * The differences of one class and currency not yet RESOLVED: how many, the money they are about
 * (the statement's amount, or the local one when the statement has none), and when the oldest was
 * found.
 */
public record OpenDifferences(
    DifferenceClass kind, String currency, long count, long amountMinor, Instant oldestFoundAt) {}
