package dev.clearway.core.refund.domain;

/**
 * The states of one after-sales refund. Legal edges: {@link RefundTransitions}. For every
 * non-terminal state, who finds it, which fact decides, its backoff and its exit:
 *
 * <table>
 *   <tr><th>state</th><th>who finds it</th><th>which fact decides</th><th>backoff</th>
 *       <th>exit</th></tr>
 *   <tr><td>PENDING</td><td>the creating request (holds the creation lease); the refund scanner
 *       once that lease expired (a crash between insert and send); wake-ups</td>
 *       <td>the parent flow's status (BIZ_SUCCESS, itself terminal)</td>
 *       <td>none: acted on at once</td>
 *       <td>PROCESSING by CAS before the wallet is called; CLOSED if the flow is not BIZ_SUCCESS
 *       (only a row written outside the API can be)</td></tr>
 *   <tr><td>PROCESSING</td><td>the wake-up scheduled by the step that left it; the refund
 *       scanner</td>
 *       <td>the wallet's refund queried by refund_no: SUCCESS, FAILED (retryable or not),
 *       PROCESSING, UNKNOWN, NO_RECORD</td>
 *       <td>exponential with jitter ({@code Backoff}), retry_count per stage</td>
 *       <td>SUCCESS; FAIL on a definite non-retryable failure; NO_RECORD or retryable FAILED: the
 *       same number sent again; budget spent: ABNORMAL</td></tr>
 *   <tr><td>ABNORMAL</td><td>the refund scanner and wake-ups at the escalated interval; a person
 *       (manual review)</td>
 *       <td>the same query by refund_no</td>
 *       <td>{@code escalatedInterval}: low frequency, never dropped</td>
 *       <td>SUCCESS or FAIL; anything else stays ABNORMAL (the same number is re-sent on NO_RECORD
 *       or retryable FAILED)</td></tr>
 * </table>
 */
public enum RefundStatus {
  /** Row exists, its number fixed; the wallet has not been asked yet. */
  PENDING(false),
  /** The refund was (or is about to be) sent; the wallet may or may not have executed it. */
  PROCESSING(false),
  /** The wallet executed the refund. */
  SUCCESS(true),
  /** The wallet definitely refused it; no money moved. Its amount is free for another refund. */
  FAIL(true),
  /** The retry budget is spent without a decisive answer: manual review, still queried slowly. */
  ABNORMAL(false),
  /** Closed before anything was sent. */
  CLOSED(true);

  private final boolean terminal;

  RefundStatus(boolean terminal) {
    this.terminal = terminal;
  }

  public boolean isTerminal() {
    return terminal;
  }

  /**
   * Whether the amount may still leave (or has left) the merchant: counted against the paid amount
   * when another refund is requested. FAIL and CLOSED moved no money and never will.
   */
  public boolean holdsAmount() {
    return switch (this) {
      case PENDING, PROCESSING, SUCCESS, ABNORMAL -> true;
      case FAIL, CLOSED -> false;
    };
  }
}
