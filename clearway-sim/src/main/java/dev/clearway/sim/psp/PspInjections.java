package dev.clearway.sim.psp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Differences a simulated PSP injects that nothing online reveals, only its daily statement; each
 * one that took effect is recorded as ground truth ({@link #injected()}): the difference class a
 * reconciliation must find, and the order or refund number it is about.
 *
 * <ul>
 *   <li>{@link #lagCharge}: the charge of a merchant order happens, but the create's answer is
 *       lost, no notification is sent, and the query and close answer as if the PSP had no record
 *       of the order (its data lags): the local side ends the order unpaid. Recorded {@code
 *       LATE_CHARGE} when the charge happens.
 *   <li>{@link #lieOnRefund}: the refund executes, but is answered as a refusal, its query answers
 *       "no such refund" and no notification is sent. Recorded {@code REFUND_SETTLED_LOCAL_PENDING}
 *       when it executes.
 *   <li>{@link #feeDelta}: the PSP takes another fee than agreed on the order's charge. Recorded
 *       {@code FEE_MISMATCH} when the charge happens.
 *   <li>a foreign charge (an order made outside the merchant's system) and a reversal after
 *       settlement are made by the PSP itself; recorded {@code UNKNOWN_STATEMENT_LINE} and {@code
 *       ADJUSTMENT_TO_REVIEW}.
 *   <li>{@link #corruptNextStatements}: the next statement downloads are corrupted (the file does
 *       not match its announced hash, or a line is malformed), once each.
 * </ul>
 *
 * <p>Thread-safe: the harness registers while the PSP serves.
 */
public final class PspInjections {

  /** One injected difference: the class a reconciliation must find and the number it is about. */
  public record Injected(String kind, String key) {}

  private final Set<String> laggedCharges = ConcurrentHashMap.newKeySet();
  private final Set<String> liedRefunds = ConcurrentHashMap.newKeySet();
  private final Set<String> unnamedRefunds = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> feeDeltas = new ConcurrentHashMap<>();
  private final Set<Injected> injected = ConcurrentHashMap.newKeySet();
  private final AtomicInteger corruptions = new AtomicInteger();
  private final AtomicInteger corruptionsServed = new AtomicInteger();

  /** The charge of {@code merchantReference} lags: nothing online reveals it. */
  public void lagCharge(String merchantReference) {
    laggedCharges.add(merchantReference);
  }

  public boolean lagged(String merchantReference) {
    return merchantReference != null && laggedCharges.contains(merchantReference);
  }

  /** The refund {@code refundNo} executes but is reported refused. */
  public void lieOnRefund(String refundNo) {
    liedRefunds.add(refundNo);
  }

  public boolean liedAbout(String refundNo) {
    return refundNo != null && liedRefunds.contains(refundNo);
  }

  /**
   * The statement lists the refund of that number without our number (as a report run without the
   * refund metadata column does): only its payment names it. Not a difference: a refund matched
   * through its payment must reconcile without one.
   */
  public void unnameRefund(String refundNo) {
    unnamedRefunds.add(refundNo);
  }

  public boolean unnamed(String refundNo) {
    return refundNo != null && unnamedRefunds.contains(refundNo);
  }

  /** The fee of {@code merchantReference}'s charge differs from the agreed one by {@code delta}. */
  public void feeDelta(String merchantReference, long delta) {
    if (delta == 0) {
      throw new IllegalArgumentException("a fee difference must not be zero");
    }
    feeDeltas.put(merchantReference, delta);
  }

  /** The fee difference of the order's charge, 0 when none was injected. */
  public long feeDeltaOf(String merchantReference) {
    return merchantReference == null ? 0 : feeDeltas.getOrDefault(merchantReference, 0L);
  }

  /** The next {@code n} statement downloads are corrupted. */
  public void corruptNextStatements(int n) {
    corruptions.addAndGet(n);
  }

  /** True (once per corruption asked for) when this download must be corrupted. */
  public boolean takeCorruption() {
    while (true) {
      int left = corruptions.get();
      if (left <= 0) {
        return false;
      }
      if (corruptions.compareAndSet(left, left - 1)) {
        corruptionsServed.incrementAndGet();
        return true;
      }
    }
  }

  /** The corrupted statements served so far. */
  public int corruptionsServed() {
    return corruptionsServed.get();
  }

  /** Records that an injection took effect. */
  public void record(String kind, String key) {
    injected.add(new Injected(kind, key));
  }

  /** Every injected difference that took effect, sorted by class and number. */
  public List<Injected> injected() {
    List<Injected> out = new ArrayList<>(injected);
    out.sort(Comparator.comparing(Injected::kind).thenComparing(Injected::key));
    return out;
  }
}
