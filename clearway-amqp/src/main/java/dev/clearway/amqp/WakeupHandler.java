package dev.clearway.amqp;

/**
 * Advances one row when its wake-up arrives (for a flow: {@code advancer.advance(id, trigger)},
 * which claims and re-reads the row, so a stale or duplicated wake-up does nothing harmful).
 * Throwing means "failed": the wake-up is tried again, and after too many failures dead-lettered.
 */
@FunctionalInterface
public interface WakeupHandler {
  void wake(long id) throws Exception;
}
