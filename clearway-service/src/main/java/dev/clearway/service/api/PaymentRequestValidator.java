package dev.clearway.service.api;

import dev.clearway.core.channel.domain.MethodChoice;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Currency;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Checks a payment request before anything is written, and computes the hash that binds an
 * Idempotency-Key to its parameters.
 */
public final class PaymentRequestValidator {
  static final int MAX_KEY_LENGTH = 255;
  static final Duration MAX_DEADLINE = Duration.ofDays(400);

  private final long maxAmount;
  private final Clock clock;

  public PaymentRequestValidator(long maxAmount, Clock clock) {
    this.maxAmount = maxAmount;
    this.clock = clock;
  }

  /** The payment methods a request may name. */
  static final java.util.Set<String> METHODS =
      java.util.Set.of("wallet", "card", "wechat_native", "wechat_jsapi");

  private static final java.util.regex.Pattern TOKEN =
      java.util.regex.Pattern.compile("[A-Za-z0-9_]{1,64}");
  private static final java.util.regex.Pattern PAYER =
      java.util.regex.Pattern.compile("[A-Za-z0-9_-]{1,128}");

  /**
   * A well-formed request of one merchant, and its canonical hash; {@code method} is null when the
   * request names none (the service's default).
   */
  public record Valid(NewPayment payment, String requestHash, MethodChoice method) {}

  public static void checkKey(String key) {
    if (key == null || key.isBlank()) {
      throw ApiException.badRequest(
          "idempotency_key_missing", "the Idempotency-Key header is required");
    }
    if (key.length() > MAX_KEY_LENGTH) {
      throw ApiException.badRequest(
          "idempotency_key_too_long", "the Idempotency-Key header is longer than 255 characters");
    }
  }

  /** Every check: the form of the request, then the limits that depend on the clock. */
  public Valid validate(String merchant, CreatePaymentRequest r) {
    Valid valid = parse(merchant, r);
    checkLimits(valid.payment());
    return valid;
  }

  /**
   * The checks of form only: what the request says, whatever the time. A retry of a request that
   * was accepted passes them again, so its Idempotency-Key can be answered from its record even
   * after its deadline passed.
   */
  public Valid parse(String merchant, CreatePaymentRequest r) {
    if (r == null) {
      throw ApiException.badRequest("missing_body", "a JSON body is required");
    }
    long userId = required(r.userId(), "userId");
    String scene = text(r.scene(), "scene", 32);
    String bizKey = text(r.bizKey(), "bizKey", 160);
    long amount = required(r.amount(), "amount");
    if (amount <= 0) {
      throw ApiException.badRequest(
          "invalid_amount", "amount must be a positive number of minor units");
    }
    if (userId <= 0) {
      throw ApiException.badRequest("invalid_user_id", "userId must be positive");
    }
    String currency = currency(text(r.currency(), "currency", 3));
    Instant deadline = deadline(text(r.bizDeadline(), "bizDeadline", 64));
    NewPayment payment =
        new NewPayment(new GoalKey(merchant, userId, scene, bizKey), amount, currency, deadline);
    MethodChoice method = method(r);
    return new Valid(payment, hash(payment, method), method);
  }

  /** The method a request names, its token and payer; null when it names none. */
  static MethodChoice method(CreatePaymentRequest r) {
    if (r.paymentMethod() == null) {
      if (r.paymentToken() != null || r.payer() != null) {
        throw ApiException.badRequest(
            "missing_field", "paymentMethod is required with paymentToken or payer");
      }
      return null;
    }
    if (!METHODS.contains(r.paymentMethod())) {
      throw ApiException.badRequest(
          "invalid_payment_method",
          "paymentMethod must be one of wallet, card, wechat_native, wechat_jsapi");
    }
    if (r.paymentToken() != null && !TOKEN.matcher(r.paymentToken()).matches()) {
      throw ApiException.badRequest(
          "invalid_field", "paymentToken must be 1 to 64 letters, digits or underscores");
    }
    if (r.payer() != null && !PAYER.matcher(r.payer()).matches()) {
      throw ApiException.badRequest(
          "invalid_field", "payer must be 1 to 128 letters, digits, '-' or '_'");
    }
    if (r.paymentMethod().equals("wechat_jsapi") && r.payer() == null) {
      throw ApiException.badRequest(
          "payer_required", "wechat_jsapi needs the payer's openid in payer");
    }
    return new MethodChoice(r.paymentMethod(), r.paymentToken(), r.payer());
  }

  /** The merchant's goal named by a query or a cancel, checked like a payment's. */
  public static GoalKey goal(String merchant, Long userId, String scene, String bizKey) {
    long user = required(userId, "userId");
    if (user <= 0) {
      throw ApiException.badRequest("invalid_user_id", "userId must be positive");
    }
    return new GoalKey(merchant, user, text(scene, "scene", 32), text(bizKey, "bizKey", 160));
  }

  /** The limits a new payment must meet now: the configured maximum and the deadline window. */
  public void checkLimits(NewPayment payment) {
    if (payment.amount() > maxAmount) {
      throw ApiException.badRequest(
          "amount_too_large", "amount exceeds the configured maximum of " + maxAmount);
    }
    Instant now = clock.instant();
    if (!payment.bizDeadline().isAfter(now)) {
      throw ApiException.badRequest("deadline_passed", "bizDeadline is not in the future");
    }
    if (payment.bizDeadline().isAfter(now.plus(MAX_DEADLINE))) {
      throw ApiException.badRequest(
          "deadline_too_far", "bizDeadline is more than " + MAX_DEADLINE.toDays() + " days ahead");
    }
  }

  private static long required(Long value, String field) {
    if (value == null) {
      throw ApiException.badRequest("missing_field", field + " is required");
    }
    return value;
  }

  private static String text(String value, String field, int max) {
    if (value == null || value.isBlank()) {
      throw ApiException.badRequest("missing_field", field + " is required");
    }
    if (value.length() > max) {
      throw ApiException.badRequest("field_too_long", field + " is longer than " + max);
    }
    if (hasControlCharacter(value)) {
      throw ApiException.badRequest("invalid_field", field + " contains control characters");
    }
    return value;
  }

  static boolean hasControlCharacter(String value) {
    return value.chars().anyMatch(Character::isISOControl);
  }

  private static String currency(String code) {
    try {
      // XXX (no currency) and XTS (testing) are ISO codes but not money.
      if (!code.equals(code.toUpperCase(Locale.ROOT)) || code.equals("XXX") || code.equals("XTS")) {
        throw new IllegalArgumentException();
      }
      return Currency.getInstance(code).getCurrencyCode();
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("unknown_currency", "currency must be an ISO 4217 code");
    }
  }

  private static Instant deadline(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(
          "invalid_deadline",
          "bizDeadline must be an ISO-8601 instant such as 2026-12-01T10:00:00Z");
    }
  }

  /**
   * SHA-256 over the canonical parameters: the same payment hashes the same however sent. The
   * merchant is not part of it: keys are already scoped to their merchant.
   */
  static String hash(NewPayment p, MethodChoice method) {
    String canonical = canonical(p);
    if (method != null) {
      // Only a named method changes the canonical form: hashes of requests without one stay.
      canonical +=
          "\nmethod\n"
              + method.method()
              + "\n"
              + (method.token() == null ? "" : method.token())
              + "\n"
              + (method.payer() == null ? "" : method.payer());
    }
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String canonical(NewPayment p) {
    return p.goal().userId()
        + "\n"
        + p.goal().scene()
        + "\n"
        + p.goal().bizKey()
        + "\n"
        + p.amount()
        + "\n"
        + p.currency()
        + "\n"
        + p.bizDeadline();
  }
}
