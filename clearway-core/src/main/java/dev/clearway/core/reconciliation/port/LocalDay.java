package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.LocalFact;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * The local side of one account-day, streamed for the pass over what the statement never showed.
 */
public interface LocalDay {

  /**
   * The local views of the payments sent to {@code account} whose charge or refund took place in
   * {@code [from, to)}: every flow that holds a charge, and every succeeded refund order (one view
   * per refund). Streamed from a cursor; the caller closes the stream.
   */
  Stream<LocalFact> movementsIn(String account, Instant from, Instant to);
}
