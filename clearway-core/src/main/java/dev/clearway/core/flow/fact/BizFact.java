package dev.clearway.core.flow.fact;

/**
 * The business fact read from the business service's own store: whether the goal is done and which
 * trade order the completion is attributed to.
 */
public record BizFact(BizState state, String attributedOrderNo, String errorCode) {

  public enum BizState {
    DONE,
    NOT_DONE,
    /** The fact could not be read (timeout, 5xx): never a reason to refund. */
    UNREADABLE
  }

  public static BizFact done(String attributedOrderNo) {
    return new BizFact(BizState.DONE, attributedOrderNo, null);
  }

  public static BizFact notDone() {
    return new BizFact(BizState.NOT_DONE, null, null);
  }

  public static BizFact unreadable(String errorCode) {
    return new BizFact(BizState.UNREADABLE, null, errorCode);
  }
}
