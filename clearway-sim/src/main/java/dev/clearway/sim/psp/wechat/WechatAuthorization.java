package dev.clearway.sim.psp.wechat;

import java.security.PublicKey;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a merchant request's {@code Authorization: WECHATPAY2-SHA256-RSA2048 mchid="..",
 * nonce_str="..",signature="..",timestamp="..",serial_no=".."} header: the mchid must be this
 * merchant's and the signature must verify with the merchant public key over {@code
 * "METHOD\nURL\ntimestamp\nnonce\nbody\n"}.
 */
final class WechatAuthorization {
  private static final Pattern PAIR = Pattern.compile("(\\w+)=\"([^\"]*)\"");

  private final String mchid;
  private final PublicKey merchantKey;

  WechatAuthorization(String mchid, PublicKey merchantKey) {
    this.mchid = mchid;
    this.merchantKey = merchantKey;
  }

  /** Verifies over {@code body}, the bytes received. */
  boolean authentic(String header, String method, String url, byte[] body) {
    if (header == null || !header.startsWith(WechatProtocol.AUTH_SCHEMA + " ")) {
      return false;
    }
    Map<String, String> fields = new HashMap<>();
    Matcher m = PAIR.matcher(header.substring(WechatProtocol.AUTH_SCHEMA.length() + 1));
    while (m.find()) {
      fields.put(m.group(1), m.group(2));
    }
    String timestamp = fields.get("timestamp");
    String nonce = fields.get("nonce_str");
    String signature = fields.get("signature");
    if (!mchid.equals(fields.get("mchid"))
        || timestamp == null
        || nonce == null
        || signature == null
        || fields.get("serial_no") == null) {
      return false;
    }
    byte[] message = WechatCrypto.message(body, method, url, timestamp, nonce);
    return WechatCrypto.verify(merchantKey, message, signature);
  }
}
