package dev.clearway.core.lease;

import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.runtime.Backoff;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The loop every leased table shares (flows, refund orders, late-charge checks): claim the row
 * unless the trigger holds a live lease, re-read it, and step it while this advance still holds it.
 *
 * <p>Rules it keeps for every table: a trigger without a lease, or whose lease expired while it
 * waited (a scanner task in a queue, a synchronous advance in a saturated pool), claims afresh from
 * a fresh read, and the claim fails while another worker holds the row; a row whose {@code
 * lease_owner} is not this advance's token is left to its holder, with no external call from here;
 * every write of a step is fenced by {@link LeaseHold#holder()}; a refused reschedule is a lost
 * lease, counted and never retried; and an advance ends after {@code maxSteps} steps rather than
 * spin, handing the row to a later trigger.
 *
 * @param <R> the row type
 * @param <T> what one advance returns
 */
public final class LeasedAdvance<R, T> {

  /** The table's own part: what ends an advance, and one step of its state machine. */
  public interface Machine<R, T> {

    /** The row's id. */
    long id(R row);

    /** Whether the row takes no step, whoever holds it (terminal; frozen for review). */
    boolean ended(R row);

    /**
     * The result for a row that takes no step now: absent (null), ended, or held by another worker.
     */
    T settle(R row);

    /** The row's {@code lease_owner}. */
    String leaseOwner(R row);

    /** One step under {@code hold}: the row to continue from, or the result. */
    Step<R, T> step(R row, LeaseHold hold);

    /** The result after {@code maxSteps} steps: the machine hands the row to a later trigger. */
    T stepLimit(R row, LeaseHold hold);

    /** A step chosen by the caller for a row it has just written (see advanceStarted). */
    @FunctionalInterface
    interface FirstStep<R, T> {
      Step<R, T> step(R row, LeaseHold hold);
    }
  }

  /** Either the row to step next, or the result that ends the advance. */
  public record Step<R, T>(R next, T result) {
    public static <R, T> Step<R, T> next(R row) {
      return new Step<>(row, null);
    }

    public static <R, T> Step<R, T> done(T result) {
      return new Step<>(null, result);
    }
  }

  /** A reschedule write fenced by the holder's lease; false when 0 rows were updated. */
  @FunctionalInterface
  public interface RescheduleWrite {
    boolean write(Instant nextDue, Instant now);
  }

  private final LeasedRows<R> rows;
  private final Machine<R, T> machine;
  private final LeaseTokens leases;
  private final Backoff backoff;
  private final Clock clock;
  private final int maxSteps;
  private final Runnable leaseLost;

  /**
   * @param leaseLost told of every write refused because the writer no longer holds its lease
   */
  public LeasedAdvance(
      LeasedRows<R> rows,
      Machine<R, T> machine,
      LeaseTokens leases,
      Backoff backoff,
      Clock clock,
      int maxSteps,
      Runnable leaseLost) {
    this.rows = rows;
    this.machine = machine;
    this.leases = leases;
    this.backoff = backoff;
    this.clock = clock;
    this.maxSteps = maxSteps;
    this.leaseLost = leaseLost;
  }

  /** Advances a row as far as its facts allow; claims it unless the trigger holds a live lease. */
  public T advance(long id, Trigger trigger) {
    Lease lease = trigger.lease();
    if (lease == null || expired(lease)) {
      lease = leases.next();
      if (!rows.claim(id, lease, clock.instant())) {
        return machine.settle(rows.find(id).orElse(null));
      }
    }
    return run(rows.find(id).orElse(null), new LeaseHold(trigger, lease));
  }

  /**
   * Advances a row that the caller's own transaction has just written and returned under {@code
   * trigger}'s lease (creation, a scanner's claim), so no second read is needed.
   */
  public T advanceCreated(R created, Trigger trigger) {
    if (trigger.lease() == null) {
      throw new IllegalArgumentException("a created row is advanced under its creation lease");
    }
    if (expired(trigger.lease())) {
      // Race: the task waited in a queue past its creation lease, so the row it carries may be
      // stale and taken over. Claim afresh like any other entry, from a fresh read.
      return advance(machine.id(created), Trigger.unclaimed(trigger.source()));
    }
    return run(created, new LeaseHold(trigger, trigger.lease()));
  }

  /**
   * {@link #advanceCreated}, whose first step is {@code first} rather than the machine's own step
   * for the row's state: the caller's statement both created the row and took a step the machine
   * would take (a payment created in PAYING whose charge is still to send). With an expired lease
   * the row is claimed afresh and the machine's own steps run from a fresh read.
   */
  public T advanceStarted(R started, Trigger trigger, Machine.FirstStep<R, T> first) {
    if (trigger.lease() == null) {
      throw new IllegalArgumentException("a created row is advanced under its creation lease");
    }
    if (expired(trigger.lease())) {
      return advance(machine.id(started), Trigger.unclaimed(trigger.source()));
    }
    LeaseHold hold = new LeaseHold(trigger, trigger.lease());
    hold.start(clock.millis());
    Step<R, T> step = first.step(started, hold);
    return step.result() != null ? step.result() : run(step.next(), hold);
  }

  /**
   * Reschedules the held row after backoff: {@code write} stores the next due time under the
   * holder's lease. Returns when the row is due again, or empty when the lease was lost (counted;
   * nothing was written).
   */
  public Optional<Instant> reschedule(
      long id, int retryCount, boolean escalated, RescheduleWrite write) {
    Instant now = clock.instant();
    Instant next = backoff.next(id, retryCount, escalated, now);
    if (!write.write(next, now)) {
      leaseLost.run();
      return Optional.empty();
    }
    return Optional.of(next);
  }

  /**
   * The hold of an advance of rows the caller's own claim returned under {@code trigger}'s lease (a
   * scanner's page), its step started now; empty when the trigger has no lease or it has expired:
   * the rows may be stale and taken over, and each is then advanced alone from a fresh claim.
   */
  public Optional<LeaseHold> hold(Trigger trigger) {
    if (trigger.lease() == null || expired(trigger.lease())) {
      return Optional.empty();
    }
    LeaseHold hold = new LeaseHold(trigger, trigger.lease());
    hold.start(clock.millis());
    return Optional.of(hold);
  }

  /**
   * Whether {@code hold} may step {@code row}: the row exists, takes steps, and its {@code
   * lease_owner} is the hold's token.
   */
  public boolean holds(R row, LeaseHold hold) {
    return row != null && !machine.ended(row) && hold.holder().equals(machine.leaseOwner(row));
  }

  /** Counts a write refused because this advance no longer holds its lease. */
  public void leaseLost() {
    leaseLost.run();
  }

  private boolean expired(Lease lease) {
    return !clock.instant().isBefore(lease.until());
  }

  private T run(R row, LeaseHold hold) {
    for (int i = 0; i < maxSteps; i++) {
      if (row == null || machine.ended(row)) {
        return machine.settle(row);
      }
      if (!hold.holder().equals(machine.leaseOwner(row))) {
        // Race: our lease expired and another worker claimed the row (a scanner task that sat in
        // a queue, a worker that stalled). Leave it to the holder: no external call from here.
        return machine.settle(row);
      }
      hold.start(clock.millis());
      Step<R, T> step = machine.step(row, hold);
      if (step.result() != null) {
        return step.result();
      }
      row = step.next();
    }
    return machine.stepLimit(row, hold);
  }
}
