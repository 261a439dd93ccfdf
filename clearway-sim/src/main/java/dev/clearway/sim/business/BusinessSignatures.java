package dev.clearway.sim.business;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The contract's HMAC-SHA256 signatures, computed by the simulated business itself: {@code t=<unix
 * seconds>,v1=<hex HMAC of "<t>.<signed bytes>">}. A request verifies when one {@code v1} entry
 * matches and its timestamp is within five minutes of the server's clock.
 */
final class BusinessSignatures {
  private static final Pattern TIMESTAMP = Pattern.compile("(?:^|,)\\s*t=(\\d{1,18})\\s*(?:,|$)");
  private static final Pattern V1 = Pattern.compile("(?:^|,)\\s*v1=([0-9a-f]{64})\\s*(?=,|$)");
  private static final Duration TOLERANCE = Duration.ofMinutes(5);

  private final byte[] key;
  private final Clock clock;

  BusinessSignatures(String secret, Clock clock) {
    this.key = secret.getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
  }

  /** The header value for {@code signed} at the server's clock. */
  String sign(byte[] signed) {
    long t = clock.instant().getEpochSecond();
    return "t=" + t + ",v1=" + HexFormat.of().formatHex(hmac(t, signed));
  }

  /** The header value signed with a wrong key (a fault: the engine must not trust it). */
  static String forged(byte[] signed, Clock clock) {
    return new BusinessSignatures("not-the-shared-secret", clock).sign(signed);
  }

  boolean verifies(String header, byte[] signed) {
    if (header == null || header.length() > 4096) {
      return false;
    }
    Matcher t = TIMESTAMP.matcher(header);
    if (!t.find()) {
      return false;
    }
    long timestamp = Long.parseLong(t.group(1));
    if (Math.abs(clock.instant().getEpochSecond() - timestamp) > TOLERANCE.getSeconds()) {
      return false;
    }
    byte[] expected = hmac(timestamp, signed);
    boolean match = false;
    Matcher v1 = V1.matcher(header);
    while (v1.find()) {
      match |= MessageDigest.isEqual(expected, HexFormat.of().parseHex(v1.group(1)));
    }
    return match;
  }

  /** {@code "<method> <path>\n" + body}: what a request's signature covers. */
  static byte[] request(String method, String path, byte[] body) {
    return join(method + " " + path + "\n", body);
  }

  /** {@code "<request id>\n<status>\n" + body}: what an answer's signature covers. */
  static byte[] response(String requestId, int status, byte[] body) {
    return join(requestId + "\n" + status + "\n", body);
  }

  private static byte[] join(String head, byte[] body) {
    byte[] h = head.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[h.length + body.length];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(body, 0, out, h.length, body.length);
    return out;
  }

  private byte[] hmac(long t, byte[] signed) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(signed);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }
}
