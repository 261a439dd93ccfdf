package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.port.AttemptStore;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.channel.port.WebhookInbox;
import dev.clearway.core.channel.port.WebhookInbox.Delivery;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Webhooks of every channel account. The adapter verifies the signature and timestamp (and
 * decrypts); then an authoritative webhook is recorded as evidence through the same CAS path as the
 * recovery worker, and a non-authoritative one (Stripe: "fetch the object") only wakes the
 * attempt's recovery task, except that news of a charge on a FAILED attempt is confirmed by a
 * retrieve at once, since that attempt has no task left.
 */
public final class ChannelWebhookIntake {

  /** What the endpoint does with a delivery. */
  public enum Disposition {
    /** Done, or a duplicate of a delivery that was: answer 2xx, the PSP stops delivering. */
    PROCESSED,
    /** Signature, timestamp or body refused: answer 4xx. */
    REFUSED,
    /**
     * Not conclusive yet (the confirming call got no answer): answer 5xx so the PSP delivers again;
     * nothing was marked done.
     */
    REDELIVER
  }

  /** What the endpoint answers; {@code code} is stable. */
  public record Result(Disposition disposition, String code) {
    public boolean accepted() {
      return disposition == Disposition.PROCESSED;
    }
  }

  private static final int CONFIRM_QPS = 20;

  /** The code of a delivery whose confirming retrieve got no conclusive answer. */
  static final String INCONCLUSIVE = "unconfirmed";

  /** After this an unfinished claim belongs to a process that died; longer than any delivery. */
  static final Duration CLAIM_STALE = Duration.ofMinutes(2);

  private final ChannelContext ctx;
  private final WebhookInbox inbox;
  private final RecoveryTaskStore tasks;
  private final AttemptStore attemptStore;
  private final AttemptRecorder recorder;

  public ChannelWebhookIntake(ChannelContext ctx) {
    this.ctx = ctx;
    this.inbox = ctx.stores().inbox();
    this.tasks = ctx.stores().tasks();
    this.attemptStore = ctx.stores().attempts();
    this.recorder = new AttemptRecorder(ctx);
  }

  /**
   * Verifies, deduplicates, then acts. The event is claimed in the inbox before any work (a PSP
   * call, a recording): a delivery whose event id was already claimed answers {@code duplicate} and
   * does nothing. A claim is finished once the work is done; a failure forgets it, so that the
   * PSP's redelivery does the work; a claim left unfinished by a process that died is taken over by
   * a delivery after {@link #CLAIM_STALE}. News of a charge that a retrieve could neither confirm
   * nor deny is released too, and answered {@link Disposition#REDELIVER}.
   */
  public Result accept(long channelAccountId, Map<String, String> headers, byte[] body) {
    PspAdapter adapter = ctx.adapters().adapter(channelAccountId);
    WebhookNotice notice;
    try {
      notice = adapter.parseWebhook(headers, body);
    } catch (WebhookRejected e) {
      return new Result(Disposition.REFUSED, e.code());
    }
    Instant now = ctx.clock().instant();
    Delivery delivery = new Delivery(channelAccountId, adapter.channel(), notice.eventId());
    if (!inbox.claimDelivery(delivery, now, now.minus(CLAIM_STALE))) {
      return new Result(Disposition.PROCESSED, "duplicate");
    }
    String code;
    try {
      code =
          switch (notice.kind()) {
            case PAYMENT -> onPayment(channelAccountId, adapter, notice);
            case REFUND, IGNORED -> "acknowledged";
          };
    } catch (RuntimeException e) {
      try {
        inbox.releaseDelivery(delivery);
      } catch (RuntimeException alsoFailed) {
        e.addSuppressed(alsoFailed); // the claim goes stale; a redelivery after that does the work
      }
      throw e;
    }
    if (INCONCLUSIVE.equals(code)) {
      inbox.releaseDelivery(delivery);
      return new Result(Disposition.REDELIVER, code);
    }
    inbox.finishDelivery(delivery, ctx.clock().instant());
    return new Result(Disposition.PROCESSED, code);
  }

  private String onPayment(long accountId, PspAdapter adapter, WebhookNotice notice) {
    Optional<Attempt> found =
        Optional.ofNullable(notice.idempotencyKey()).flatMap(attemptStore::attemptByKey);
    if (found.isEmpty() || found.get().channelAccountId() != accountId) {
      return "unknown_attempt";
    }
    Attempt attempt = found.get();
    PspOutcome outcome = notice.payment();
    if (!adapter.capabilities().webhookAuthoritative()) {
      boolean claimsCharge =
          outcome != null && outcome.certainty() == ResultCertainty.CONFIRMED_SUCCESS;
      if (!claimsCharge || attempt.status() == AttemptStatus.SUCCEEDED) {
        tasks.wakeTask(attempt.id(), ctx.clock().instant());
        return "woken";
      }
      // News of a charge is confirmed by a retrieve at once, whatever the attempt's state: it may
      // be FAILED already (no task left to wake), or its create's answer may still be on the way
      // and about to record a failure (a PSP that answered "unavailable" but charged). Race: the
      // retrieve's record and the create's record CAS the same version; whichever loses re-reads.
      // A request thread never waits for the account's pace: without a slot free now, the news is
      // left for the PSP to deliver again.
      if (!ctx.limiter().tryAcquire(accountId, CONFIRM_QPS, Duration.ZERO)) {
        return INCONCLUSIVE;
      }
      outcome = adapter.retrieve(attempt.ref());
      record(attempt, outcome, EvidenceSource.QUERY, "RETRIEVE_AFTER_WEBHOOK");
      // Without an answer the news is neither confirmed nor denied: the PSP delivers it again, so
      // that a charge on an attempt about to be recorded FAILED is still found.
      return conclusive(outcome.certainty()) ? "confirmed" : INCONCLUSIVE;
    }
    if (outcome == null) {
      return "acknowledged";
    }
    record(attempt, outcome, EvidenceSource.CALLBACK, "WEBHOOK");
    return "recorded";
  }

  private static boolean conclusive(ResultCertainty certainty) {
    return switch (certainty) {
      case CONFIRMED_SUCCESS, DEFINITE_FAILURE, NO_SIDE_EFFECT -> true;
      case PENDING, UNKNOWN -> false;
    };
  }

  /**
   * Webhook intake is not a leased worker: it records as an observer, against the attempt version
   * it read, so a newer result recorded meanwhile is never overwritten (its CAS finds 0 rows).
   */
  private void record(Attempt attempt, PspOutcome outcome, EvidenceSource source, String op) {
    String version = ctx.policies().versionFor(attempt.tradeOrderNo());
    recorder.record(
        AttemptRecorder.Observation.observed(
            attempt, outcome, source, op, recorder.createRule(attempt, version), version));
  }
}
