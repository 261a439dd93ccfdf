package dev.clearway.core.flow.fact;

/**
 * How sure we are about a wallet outcome.
 *
 * <p>Timeouts, connection resets and 5xx are {@link #UNKNOWN}: the wallet may have executed. {@link
 * #NO_RECORD} is only ever the answer of a query: the wallet definitely has no record of the order,
 * so re-sending the same order number is safe.
 */
public enum Certainty {
  SUCCESS,
  DEFINITE_FAILURE,
  PROCESSING,
  UNKNOWN,
  NO_RECORD
}
