package dev.clearway.sim;

/** Faults of the simulated wallet, applied to the first call of an order. */
public enum WalletFault {
  NONE,
  /** The charge committed, the response was lost: the caller sees a timeout. */
  PAY_RESPONSE_LOST,
  /** Timed out before the wallet did anything. */
  PAY_TIMEOUT_BEFORE,
  /** PROCESSING for a while, then SUCCESS. */
  PAY_PROCESSING,
  /** Definite rejection (insufficient balance). */
  PAY_REJECTED,
  /** HTTP 5xx from a proxy after the charge committed. */
  PAY_5XX,
  /** A slow but correct response; one in ten stalls beyond the engine's lease. */
  PAY_SLOW,
  /** The charge committed and the advancing worker died before writing the state. */
  PAY_CRASH_AFTER_CHARGE,
  /** The first payment query fails with a 5xx. */
  QUERY_5XX,
  /** The refund committed, the response was lost. */
  REFUND_RESPONSE_LOST,
  /** The refund is PROCESSING for a while, then SUCCESS. */
  REFUND_PROCESSING,
  /** The refund FAILED (retryable) the first time, then succeeds on retry. */
  REFUND_FAILED_ONCE,
  /** The refund committed and the advancing worker died before writing the state. */
  REFUND_CRASH_AFTER
}
