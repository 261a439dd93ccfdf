package dev.clearway.core.refund.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A merchant's request to refund part or all of a BIZ_SUCCESS flow, under an idempotency key.
 *
 * @param requestedBy the merchant (for an after-sales refund, the owner of the payment) or the
 *     engine; idempotency keys are scoped to it
 * @param idempotencyKey the client's key: the same key and parameters return the same refund
 */
public record NewRefund(
    long flowId,
    long amount,
    String reason,
    String requestedBy,
    String idempotencyKey,
    RefundKind kind) {

  /** A merchant's after-sales refund. */
  public NewRefund(
      long flowId, long amount, String reason, String requestedBy, String idempotencyKey) {
    this(flowId, amount, reason, requestedBy, idempotencyKey, RefundKind.AFTER_SALE);
  }

  /**
   * The refund of a charge that landed on an order already ended without payment. The key is fixed
   * per flow, so any number of checks of the same flow create one refund.
   */
  public static NewRefund lateCharge(long flowId, long amount) {
    return new NewRefund(
        flowId,
        amount,
        "LATE_CHARGE_ON_CLOSED_ORDER",
        "clearway",
        "late-charge-" + flowId,
        RefundKind.LATE_CHARGE);
  }

  public NewRefund {
    if (amount <= 0) {
      throw new IllegalArgumentException("a refund amount is positive");
    }
    if (reason == null || requestedBy == null || idempotencyKey == null || kind == null) {
      throw new IllegalArgumentException("reason, requester and idempotency key are required");
    }
  }

  /**
   * SHA-256 (hex) of the parameters the key is bound to: the same key with another flow, amount or
   * reason is a reuse and is refused.
   */
  public String requestHash() {
    String canonical = flowId + "\n" + amount + "\n" + reason + "\n" + kind;
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
