package dev.clearway.core.signature;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Stripe-style webhook signatures.
 *
 * <p>Header value: {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">}. A header may
 * carry several {@code v1} entries (one per secret while a secret is being rotated); it verifies if
 * any of them matches. Entries of other schemes ({@code v0=...}) are ignored, as Stripe does. The
 * signature is checked before the timestamp, so a forged request is always {@link
 * Result#BAD_SIGNATURE} and {@link Result#STALE_TIMESTAMP} only ever names an authentic but old (or
 * future) event, such as a replay. Comparison is constant-time.
 */
public final class WebhookSignature {

  /** The HTTP header that carries the signature. */
  public static final String HEADER = "Clearway-Signature";

  /** The default tolerance between the signed timestamp and the receiver's clock, either way. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

  private static final String SCHEME = "v1";
  private static final int SIGNATURE_HEX_LENGTH = 64;
  private static final int MAX_HEADER_LENGTH = 4096;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** The outcome of {@link #verify}. */
  public enum Result {
    VALID,
    /** Well-formed, but no {@code v1} entry matches the body under the secret. */
    BAD_SIGNATURE,
    /** Authentic, but the timestamp is further than the tolerance from now (past or future). */
    STALE_TIMESTAMP,
    /** Missing, empty, unparseable, no or several timestamps, no v1 entry, or a bad v1 entry. */
    MALFORMED
  }

  private WebhookSignature() {}

  /** The header value for {@code rawBody} signed at {@code now} with every given secret. */
  public static String sign(byte[] rawBody, Instant now, String... secrets) {
    Objects.requireNonNull(rawBody, "rawBody");
    Objects.requireNonNull(now, "now");
    if (secrets.length == 0) {
      throw new IllegalArgumentException("at least one secret is required");
    }
    long t = now.getEpochSecond();
    StringBuilder header = new StringBuilder("t=").append(t);
    for (String secret : secrets) {
      header.append(',').append(SCHEME).append('=').append(hex(hmac(secret, t, rawBody)));
    }
    return header.toString();
  }

  /** {@link #sign(byte[], Instant, String...)} of the UTF-8 bytes of {@code rawBody}. */
  public static String sign(String rawBody, Instant now, String... secrets) {
    return sign(rawBody.getBytes(StandardCharsets.UTF_8), now, secrets);
  }

  /** Verifies with the {@link #DEFAULT_TOLERANCE default tolerance} of 300 seconds. */
  public static Result verify(String header, byte[] rawBody, String secret, Instant now) {
    return verify(header, rawBody, secret, now, DEFAULT_TOLERANCE);
  }

  /**
   * Verifies {@code header} against the exact bytes received.
   *
   * @throws IllegalArgumentException if the secret is empty or the tolerance negative (the
   *     receiver's configuration is wrong; the request is not to blame)
   */
  public static Result verify(
      String header, byte[] rawBody, String secret, Instant now, Duration tolerance) {
    Objects.requireNonNull(rawBody, "rawBody");
    Objects.requireNonNull(now, "now");
    requireSecret(secret);
    if (tolerance == null || tolerance.isNegative()) {
      throw new IllegalArgumentException("tolerance must not be negative");
    }
    Parsed parsed = parse(header);
    if (parsed == null) {
      return Result.MALFORMED;
    }
    byte[] expected = hmac(secret, parsed.timestamp, rawBody);
    boolean match = false;
    for (byte[] candidate : parsed.signatures) {
      // No early exit: every entry is compared, each in constant time.
      match |= MessageDigest.isEqual(expected, candidate);
    }
    if (!match) {
      return Result.BAD_SIGNATURE;
    }
    long age = now.getEpochSecond() - parsed.timestamp;
    if (Math.abs(age) > tolerance.getSeconds()) {
      return Result.STALE_TIMESTAMP;
    }
    return Result.VALID;
  }

  /** {@link #verify(String, byte[], String, Instant)} of UTF-8 text. */
  public static Result verify(String header, String rawBody, String secret, Instant now) {
    return verify(header, rawBody, secret, now, DEFAULT_TOLERANCE);
  }

  /** {@link #verify(String, byte[], String, Instant, Duration)} of UTF-8 text. */
  public static Result verify(
      String header, String rawBody, String secret, Instant now, Duration tolerance) {
    return verify(header, rawBody.getBytes(StandardCharsets.UTF_8), secret, now, tolerance);
  }

  private record Parsed(long timestamp, List<byte[]> signatures) {}

  private static Parsed parse(String header) {
    if (header == null || header.isBlank() || header.length() > MAX_HEADER_LENGTH) {
      return null;
    }
    Long timestamp = null;
    List<byte[]> signatures = new ArrayList<>();
    for (String element : header.split(",", -1)) {
      int eq = element.indexOf('=');
      if (eq <= 0) {
        return null;
      }
      String key = element.substring(0, eq).trim();
      String value = element.substring(eq + 1).trim();
      if (key.equals("t")) {
        if (timestamp != null || !isDigits(value, 18)) {
          return null;
        }
        timestamp = Long.parseLong(value);
      } else if (key.equals(SCHEME)) {
        byte[] signature = unhex(value);
        if (signature == null) {
          return null;
        }
        signatures.add(signature);
      } else if (key.isEmpty()) {
        return null;
      }
      // Other schemes are ignored.
    }
    if (timestamp == null || signatures.isEmpty()) {
      return null;
    }
    return new Parsed(timestamp, signatures);
  }

  private static boolean isDigits(String s, int maxLength) {
    if (s.isEmpty() || s.length() > maxLength) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static byte[] hmac(String secret, long timestamp, byte[] rawBody) {
    requireSecret(secret);
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
      return mac.doFinal(rawBody);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static void requireSecret(String secret) {
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException("the webhook secret must not be empty");
    }
  }

  private static String hex(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[bytes[i] & 0xf];
    }
    return new String(out);
  }

  private static byte[] unhex(String s) {
    if (s.length() != SIGNATURE_HEX_LENGTH) {
      return null;
    }
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = hexDigit(s.charAt(2 * i));
      int lo = hexDigit(s.charAt(2 * i + 1));
      if (hi < 0 || lo < 0) {
        return null;
      }
      out[i] = (byte) ((hi << 4) | lo);
    }
    return out;
  }

  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
