package dev.clearway.core.latecharge.domain;

/**
 * The states of one late-charge check: the suspicion that a charge landed on an order already ended
 * without payment (PAY_FAIL or CLOSED). Legal edges: {@link LateChargeTransitions}. For every
 * non-terminal state, who finds it, which fact decides, its backoff and its exit:
 *
 * <table>
 *   <tr><th>state</th><th>who finds it</th><th>which fact decides</th><th>backoff</th>
 *       <th>exit</th></tr>
 *   <tr><td>PENDING</td><td>the late-charge scanner (the row is due at once when a callback or
 *       the sweep writes it)</td>
 *       <td>the wallet's order queried by trade_order_no</td>
 *       <td>exponential with jitter ({@code Backoff}), retry_count</td>
 *       <td>CHARGE_CONFIRMED on SUCCESS; NO_CHARGE on a definite failure or no record; MANUAL once
 *       the retry budget is spent on PROCESSING or UNKNOWN</td></tr>
 *   <tr><td>CHARGE_CONFIRMED</td><td>the worker that confirmed it (holds the lease); the scanner
 *       once that lease expired</td>
 *       <td>none: the charge is confirmed, the refund is requested under the flow's fixed key</td>
 *       <td>none: acted on at once</td>
 *       <td>REFUND_REQUESTED; MANUAL if the refund store refuses the request</td></tr>
 *   <tr><td>MANUAL</td><td>a person (ops console, gauge); the scanner at the escalated
 *       interval</td>
 *       <td>the same query</td>
 *       <td>{@code escalatedInterval}: low frequency, never dropped</td>
 *       <td>CHARGE_CONFIRMED or NO_CHARGE once the wallet answers</td></tr>
 * </table>
 */
public enum LateChargeStatus {
  /** Suspected; the wallet has not given a definite answer yet. */
  PENDING(false),
  /** The wallet confirmed the charge; the refund is being requested. */
  CHARGE_CONFIRMED(false),
  /** The retry budget is spent without a definite answer: a person must look; still re-checked. */
  MANUAL(false),
  /** The wallet definitely holds no charge for the order. */
  NO_CHARGE(true),
  /** The LATE_CHARGE refund order exists (its own state machine sends the money back). */
  REFUND_REQUESTED(true),
  /** The flow did not end without payment: its own state machine accounts for any charge. */
  NOT_APPLICABLE(true);

  private final boolean terminal;

  LateChargeStatus(boolean terminal) {
    this.terminal = terminal;
  }

  public boolean isTerminal() {
    return terminal;
  }
}
