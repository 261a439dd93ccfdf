package dev.clearway.core.reconciliation.domain;

/**
 * The ways the statement, the local rows and the business can disagree about one payment. Each
 * class names what must be confirmed before it is repaired and how it is repaired.
 */
public enum DifferenceClass {
  /** The PSP charged; the local flow is still PAYING. */
  CHARGED_LOCAL_PAYING,
  /** The PSP charged an order the local side ended without payment (CLOSED or PAY_FAIL). */
  LATE_CHARGE,
  /** Local PAYED, the business fulfilled the goal and names this trade order. */
  BUSINESS_DONE_UNCONFIRMED,
  /** Local PAYED, the business fulfilled the goal without naming which trade order paid it. */
  ATTRIBUTION_UNCLEAR,
  /** Local BIZ_SUCCESS, yet the PSP shows no successful charge once the window passed. */
  BIZ_SUCCESS_WITHOUT_CHARGE,
  /** Local refund succeeded, the PSP shows it still processing or not at all. */
  REFUND_NOT_AT_PSP,
  /** The PSP's refund succeeded; the local refund is still in flight. */
  REFUND_SETTLED_LOCAL_PENDING,
  /** Two attempts of one goal both charged; the business used the other one. */
  DUPLICATE_CHARGE,
  /** Same payment, different amounts. */
  AMOUNT_MISMATCH,
  /** Same payment, different currencies. */
  CURRENCY_MISMATCH,
  /** A statement line no local row knows (another environment, an order made elsewhere). */
  UNKNOWN_STATEMENT_LINE,
  /** A local success that is not on the statement (after the settlement window). */
  MISSING_FROM_STATEMENT,
  /** The PSP took another fee than the account's terms say. */
  FEE_MISMATCH,
  /** A movement the PSP made on its own (chargeback, correction). */
  ADJUSTMENT_TO_REVIEW;

  /** How this class is repaired when the local row is still in the state it was found in. */
  public RepairKind repairKind() {
    return switch (this) {
      case CHARGED_LOCAL_PAYING -> RepairKind.AUTO_SETTLE_PAID;
      case LATE_CHARGE -> RepairKind.AUTO_REFUND_LATE_CHARGE;
      case BUSINESS_DONE_UNCONFIRMED -> RepairKind.AUTO_CONFIRM_BUSINESS;
      case REFUND_SETTLED_LOCAL_PENDING -> RepairKind.AUTO_SETTLE_REFUND;
      case DUPLICATE_CHARGE -> RepairKind.AUTO_REFUND_UNATTRIBUTED;
      case REFUND_NOT_AT_PSP, MISSING_FROM_STATEMENT, BIZ_SUCCESS_WITHOUT_CHARGE ->
          RepairKind.WAIT_THEN_PERSON;
      case ATTRIBUTION_UNCLEAR,
          AMOUNT_MISMATCH,
          CURRENCY_MISMATCH,
          UNKNOWN_STATEMENT_LINE,
          FEE_MISMATCH,
          ADJUSTMENT_TO_REVIEW ->
          RepairKind.NEEDS_PERSON;
    };
  }

  /** What must hold, freshly read, before the repair is applied. */
  public String mustConfirm() {
    return switch (this) {
      case CHARGED_LOCAL_PAYING ->
          "the PSP's query by attempt key answers SUCCEEDED and the flow is still PAYING";
      case LATE_CHARGE ->
          "the PSP's query by trade order no answers SUCCEEDED and no refund or compensation exists";
      case BUSINESS_DONE_UNCONFIRMED ->
          "the business query by goal names this trade order and the flow is still PAYED";
      case ATTRIBUTION_UNCLEAR -> "which trade order the business fulfilled the goal with";
      case BIZ_SUCCESS_WITHOUT_CHARGE -> "whether the PSP holds the charge under another reference";
      case REFUND_NOT_AT_PSP -> "the PSP's query by refund order no, once the window has passed";
      case REFUND_SETTLED_LOCAL_PENDING ->
          "the PSP's query by refund order no answers SUCCEEDED and the refund is still in flight";
      case DUPLICATE_CHARGE ->
          "the business attributes the goal to the sibling trade order and this flow is PAYED";
      case AMOUNT_MISMATCH, CURRENCY_MISMATCH -> "the amount the payer was actually charged";
      case UNKNOWN_STATEMENT_LINE -> "which environment or system created the order";
      case MISSING_FROM_STATEMENT -> "the PSP's query by trade order no, once the window passed";
      case FEE_MISMATCH -> "the account's current fee terms with finance";
      case ADJUSTMENT_TO_REVIEW -> "the PSP's reason for the adjustment";
    };
  }
}
