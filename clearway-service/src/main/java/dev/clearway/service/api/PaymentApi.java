package dev.clearway.service.api;

import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.CancelService;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.engine.PaymentService.Started;
import dev.clearway.core.flow.port.EntryLock;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.KeyClaim;
import dev.clearway.core.flow.port.KeyTakenException;
import dev.clearway.core.runtime.Overloaded;
import dev.clearway.service.migration.MigrationGate;
import dev.clearway.service.node.PaymentIntake;
import dev.clearway.service.node.ShutdownGate;
import dev.clearway.store.JdbcIdempotencyStore;
import dev.clearway.store.JdbcIdempotencyStore.Claim;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.springframework.http.HttpStatus;

/**
 * The payment API's rules, free of HTTP: validate, read the Idempotency-Key's record, take the
 * goal's short entry lock, create the attempt with the key's claim in one commit (where the store
 * can; else the key is claimed first, in a commit of its own), advance the payment within the
 * synchronous budget, bind the key.
 */
public final class PaymentApi {
  private static final Duration ENTRY_LOCK_WAIT = Duration.ofSeconds(2);

  /**
   * How long a key's in-flight lock outlasts the longest a request may run (entry lock wait plus
   * the synchronous budget). The lock only spares a retry from racing the running request: when a
   * holder died, its clients wait at most this long, and a request that outlives its lock is still
   * safe, since the database keeps one live attempt per goal and the retry answers that flow.
   */
  private static final Duration KEY_LOCK_MARGIN = Duration.ofSeconds(3);

  /** The most rows one page of a list holds. */
  public static final int MAX_PAGE = 100;

  private final PaymentRequestValidator validator;
  private final CancelService cancels;
  private final JdbcIdempotencyStore keys;
  private final EntryLock entryLock;
  private final PaymentService payments;
  private final FlowStore flows;
  private final Executor executor;
  private final Duration syncBudget;
  private final Duration retryAfter;
  private final Clock clock;
  private final PaymentIntake intake;
  private final MigrationGate migration;
  private final ClientDetails details;

  public PaymentApi(
      PaymentRequestValidator validator,
      CancelService cancels,
      JdbcIdempotencyStore keys,
      EntryLock entryLock,
      PaymentService payments,
      FlowStore flows,
      Executor executor,
      Duration syncBudget,
      Duration retryAfter,
      Clock clock,
      PaymentIntake intake,
      MigrationGate migration,
      ClientDetails details) {
    this.migration = migration;
    this.details = details;
    this.validator = validator;
    this.cancels = cancels;
    this.keys = keys;
    this.entryLock = entryLock;
    this.payments = payments;
    this.flows = flows;
    this.executor = executor;
    this.syncBudget = syncBudget;
    this.retryAfter = retryAfter;
    this.clock = clock;
    this.intake = intake;
  }

  /**
   * A retry under this key of a request that created its flow but died (with its node) before
   * binding the key, whose lock this retry took over: the goal's flow with this very amount,
   * currency and deadline is that request's, and is answered instead of starting another attempt
   * (which, the first having failed meanwhile, would give one key two flows) or refusing a retry
   * whose deadline has passed. A fresh key does not look.
   */
  private Optional<PayFlow> earlierRun(NewPayment payment) {
    return flows.findByGoal(payment.goal()).stream()
        .filter(f -> f.amount() == payment.amount())
        .filter(f -> f.currency().equals(payment.currency()))
        // The database keeps microseconds, rounded: the same deadline is within one of them.
        .filter(
            f -> Duration.between(f.bizDeadline(), payment.bizDeadline()).abs().toNanos() < 1_000)
        .max(Comparator.comparingInt(PayFlow::attemptNo));
  }

  private Duration keyLock() {
    return ENTRY_LOCK_WAIT.plus(syncBudget).plus(KEY_LOCK_MARGIN);
  }

  /** The answer to a create: the flow, and whether it was created or replayed by this request. */
  public record Answer(FlowView flow, boolean created, boolean replayed) {}

  /**
   * Creates a payment, or answers the key's flow. Refused before anything is written while this
   * node shuts down or intake is closed (see {@link PaymentIntake}).
   */
  public Answer create(String merchant, String idempotencyKey, CreatePaymentRequest request) {
    ShutdownGate.Pass pass = intake.admit();
    try {
      return admitted(merchant, idempotencyKey, request);
    } finally {
      pass.close();
    }
  }

  private Answer admitted(String merchant, String idempotencyKey, CreatePaymentRequest request) {
    PaymentRequestValidator.checkKey(idempotencyKey);
    // Only the form is checked before the key: a retry of an accepted request is answered from
    // its record even when the clock has since made it invalid (its deadline passed).
    PaymentRequestValidator.Valid valid = validator.parse(merchant, request);
    try {
      return claimed(merchant, idempotencyKey, valid, flows.claimsKeysAtCreation());
    } catch (KeyTakenException taken) {
      // Another request with this key claimed it between our read and our creation, which wrote
      // nothing: answer as that request's record says.
      return claimed(merchant, idempotencyKey, valid, false);
    }
  }

  /**
   * The request once its form is valid. {@code atCreation}: a key without a record is claimed in
   * the commit that creates the attempt (one commit for both, and never one without the other);
   * otherwise it is claimed first, in a commit of its own.
   */
  private Answer claimed(
      String merchant,
      String idempotencyKey,
      PaymentRequestValidator.Valid valid,
      boolean atCreation) {
    Instant now = clock.instant();
    Instant lockUntil = now.plus(keyLock());
    String hash = valid.requestHash();
    Claim claim =
        atCreation
            ? keys.look(merchant, idempotencyKey, hash, now, lockUntil)
            : keys.begin(merchant, idempotencyKey, hash, now, lockUntil);
    refuseUnusable(claim);
    if (claim instanceof Claim.Done done) {
      return new Answer(view(merchant, done.flowId()), false, true);
    }
    Optional<PayFlow> earlier =
        claim instanceof Claim.Owned owned && owned.takenOver()
            ? earlierRun(valid.payment())
            : Optional.empty();
    if (earlier.isPresent()) {
      keys.complete(merchant, idempotencyKey, earlier.get().id(), clock.instant());
      return new Answer(details.view(earlier.get()), false, true);
    }
    KeyClaim withCreation =
        claim instanceof Claim.Free
            ? new KeyClaim(merchant, idempotencyKey, hash, lockUntil)
            : null;
    Started started = started(merchant, idempotencyKey, valid, withCreation);
    PayFlow flow = started.flow();
    keys.complete(merchant, idempotencyKey, flow.id(), clock.instant());
    return new Answer(details.view(flow), started.created(), false);
  }

  /**
   * Checks, then starts the payment under the goal's entry lock; {@code withCreation}, when not
   * null, is the key's claim written with the attempt.
   */
  private Started started(
      String merchant,
      String idempotencyKey,
      PaymentRequestValidator.Valid valid,
      KeyClaim withCreation) {
    try {
      checkNew(merchant, valid);
      Optional<EntryLock.Held> held = entryLock.tryLock(valid.payment().goal(), ENTRY_LOCK_WAIT);
      try {
        return payments.start(valid.payment(), syncBudget, executor, withCreation);
      } finally {
        held.ifPresent(EntryLock.Held::close);
      }
    } catch (Overloaded full) {
      // The attempt exists and the scanner advances it: bind the key to it, so that the client's
      // retry is answered with this flow instead of starting anything.
      keys.complete(merchant, idempotencyKey, full.id(), clock.instant());
      throw ApiException.overloaded(
          "the payment was accepted but no worker is free to start it now; it goes on in the"
              + " background: retry with the same Idempotency-Key to read it",
          retryAfter);
    } catch (ApiException refused) {
      // Refused before anything was written: the key is free for a corrected request (a key to be
      // claimed with the creation was never written).
      if (withCreation == null) {
        keys.release(merchant, idempotencyKey);
      }
      throw refused;
    } catch (KeyTakenException taken) {
      throw taken;
    } catch (RuntimeException e) {
      // The attempt may exist (the failure may have come after its insert) and may even have
      // ended meanwhile: keep the key, its lock expired now, so the client's retry takes it over
      // at once and is answered with that request's flow rather than starting another attempt.
      keys.expireLock(merchant, idempotencyKey, clock.instant());
      throw e;
    }
  }

  /** Refuses a key used with other parameters, or whose request is still running. */
  private static void refuseUnusable(Claim claim) {
    if (claim instanceof Claim.Reused) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_CONTENT,
          "idempotency_key_reused",
          "this Idempotency-Key was used with other parameters");
    }
    if (claim instanceof Claim.InUse) {
      throw new ApiException(
          HttpStatus.CONFLICT,
          "idempotency_key_in_use",
          "a request with this Idempotency-Key is still running; retry shortly");
    }
  }

  /**
   * The checks of a new attempt, before anything is written: the limits, the migration's routing
   * step (a goal that is not Clearway's is handed back), then the payment method's admission (the
   * method enabled for the merchant, the amount within the channel's limits), whose choice is then
   * recorded.
   */
  private void checkNew(String merchant, PaymentRequestValidator.Valid valid) {
    validator.checkLimits(valid.payment());
    migration.admit(valid.payment().goal());
    details.admit(merchant, valid);
    details.record(valid);
  }

  /**
   * Cancels a flow: closed if no payment call was made, recorded while the charge is unknown (a
   * charge that lands is then refunded), refused once the charge is known.
   */
  public FlowView cancel(String merchant, long flowId) {
    owned(merchant, flowId);
    CancelService.Outcome outcome = cancels.cancel(flowId).orElseThrow(PaymentApi::notFound);
    if (!outcome.accepted()) {
      throw new ApiException(
          HttpStatus.CONFLICT,
          "cancel_not_possible",
          "the charge is already confirmed (state "
              + outcome.flow().status()
              + "); money goes back through a refund");
    }
    return details.view(outcome.flow());
  }

  public FlowView get(String merchant, long flowId) {
    return view(merchant, flowId);
  }

  /**
   * One page of the merchant's attempts with a business key, newest first: at most {@code limit} (1
   * to {@link #MAX_PAGE}, default {@link #MAX_PAGE}); {@code cursor} is the {@code nextCursor} of
   * the previous page.
   */
  public FlowPage byBizKey(
      String merchant, String bizKey, Long userId, String scene, String cursor, Integer limit) {
    if (bizKey == null
        || bizKey.isBlank()
        || bizKey.length() > 160
        || PaymentRequestValidator.hasControlCharacter(bizKey)) {
      throw ApiException.badRequest(
          "invalid_parameter", "bizKey is required (at most 160 characters)");
    }
    int size = limit == null ? MAX_PAGE : limit;
    if (size < 1 || size > MAX_PAGE) {
      throw ApiException.badRequest("invalid_parameter", "limit must be between 1 and " + MAX_PAGE);
    }
    long before = PageCursor.before(cursor);
    List<PayFlow> rows =
        flows.findByBizKey(
            new FlowStore.BizKeyPage(merchant, bizKey, userId, scene, before, size + 1));
    return FlowPage.of(rows, size);
  }

  /** The flow if it is the merchant's; another merchant's flow does not exist for this caller. */
  public PayFlow owned(String merchant, long flowId) {
    return flows
        .find(flowId)
        .filter(f -> f.goal().merchant().equals(merchant))
        .orElseThrow(PaymentApi::notFound);
  }

  private FlowView view(String merchant, long flowId) {
    return details.view(owned(merchant, flowId));
  }

  private static ApiException notFound() {
    return new ApiException(HttpStatus.NOT_FOUND, "flow_not_found", "no such payment flow");
  }
}
