package dev.clearway.core.channel.domain;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.PaymentParty;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Instant;

/** One attempt of a payment order on one channel account, as stored. */
public record Attempt(
    long id,
    String tradeOrderNo,
    int seq,
    long channelAccountId,
    AttemptOrigin origin,
    Long previousAttemptId,
    String providerIdempotencyKey,
    String createRequestHash,
    String providerPaymentId,
    AttemptStatus status,
    ResultCertainty certainty,
    String errorCode,
    boolean failoverEligible,
    boolean customerActionPending,
    Money money,
    int replayCount,
    long version,
    Instant createdAt) {

  /**
   * Amount, currency, method and party (sub-merchant, payer id) of an attempt: frozen with its key.
   */
  public record Money(long amount, String currency, String paymentMethod, PaymentParty party) {
    public Money {
      party = party == null ? PaymentParty.NONE : party;
    }

    /** A direct payment (no sub-merchant, no payer id). */
    public Money(long amount, String currency, String paymentMethod) {
      this(amount, currency, paymentMethod, PaymentParty.NONE);
    }
  }

  public AttemptRef ref() {
    return new AttemptRef(providerIdempotencyKey, tradeOrderNo, providerPaymentId, money.party());
  }

  public boolean isFinal() {
    return status.isFinal();
  }
}
