package dev.clearway.sim;

import java.time.Instant;

/** One money movement the simulated wallet actually executed. */
public record LedgerEntry(Kind kind, String orderNo, String tradeOrderNo, long amount, Instant at) {
  public enum Kind {
    CHARGE,
    REFUND
  }
}
