package dev.clearway.sim.psp.stripe;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs a webhook delivery as Stripe does, in the simulator's own code (so that a contract test
 * does not check the adapter's verification against itself): {@code t=<unix seconds>,v1=<hex
 * HMAC-SHA256 under the endpoint secret of "<t>." followed by the payload bytes>}. The payload is
 * the exact bytes the delivery sends.
 */
final class StripeSigner {
  private StripeSigner() {}

  static String header(byte[] payload, long timestamp, String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
      mac.update(payload);
      return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(mac.doFinal());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign with HmacSHA256", e);
    }
  }
}
