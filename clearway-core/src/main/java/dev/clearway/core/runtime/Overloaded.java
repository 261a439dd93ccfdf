package dev.clearway.core.runtime;

/**
 * No worker was free to advance a row this call created or found: the row exists and is safe, held
 * by the creation lease (or by nobody); once the lease expires the scanner advances it. The caller
 * answers "try again later" and a retry with the same idempotency key finds the row.
 */
public final class Overloaded extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long id;

  public Overloaded(long id) {
    super("no worker free to advance " + id + "; the scanner takes it over", null, false, false);
    this.id = id;
  }

  /** The flow or refund that exists and waits for the scanner. */
  public long id() {
    return id;
  }
}
