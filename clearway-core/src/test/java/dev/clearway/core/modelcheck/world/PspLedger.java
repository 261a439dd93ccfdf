package dev.clearway.core.modelcheck.world;

/**
 * What the PSP holds about the one attempt's key, as a value: nothing yet, waiting for the
 * customer, charged, or failed; how many times money moved; and how many webhooks it has sent.
 */
public record PspLedger(State state, int charges, int webhooks) {

  public enum State {
    NONE,
    PENDING,
    SUCCEEDED,
    FAILED
  }

  public static PspLedger of(State state) {
    return new PspLedger(state, state == State.SUCCEEDED ? 1 : 0, 0);
  }

  public boolean charged() {
    return state == State.SUCCEEDED;
  }

  PspLedger to(State next) {
    return new PspLedger(next, charges + (next == State.SUCCEEDED ? 1 : 0), webhooks);
  }

  public PspLedger webhookSent() {
    return new PspLedger(state, charges, webhooks + 1);
  }
}
