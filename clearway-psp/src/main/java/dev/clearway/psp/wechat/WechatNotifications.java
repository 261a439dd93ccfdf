package dev.clearway.psp.wechat;

import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Verifies and decodes WeChat Pay notifications. In order: the four {@code Wechatpay-*} headers
 * must be present ({@code malformed}); {@code Wechatpay-Serial} must name a configured platform key
 * ({@code unknown_serial}); the platform signature over {@code "timestamp\nnonce\nbody\n"} must
 * verify ({@code bad_signature}); the timestamp must be within the tolerance of now, either way
 * ({@code stale_timestamp}, which also refuses a replay of an old delivery); the body must be a
 * notification ({@code malformed}); the AEAD_AES_256_GCM resource must decrypt under the APIv3 key
 * ({@code decrypt_failed}). No message quotes the body.
 */
final class WechatNotifications {
  private static final int TAG_BITS = 128;

  private final WechatPayConfig config;
  private final JsonMapper json;
  private final WechatKeyEvents keyEvents;

  WechatNotifications(WechatPayConfig config, JsonMapper json, WechatKeyEvents keyEvents) {
    this.config = config;
    this.json = json;
    this.keyEvents = keyEvents;
  }

  WebhookNotice parse(Map<String, String> headers, byte[] rawBody) throws WebhookRejected {
    String timestamp = headers.get("wechatpay-timestamp");
    String nonce = headers.get("wechatpay-nonce");
    String signature = headers.get("wechatpay-signature");
    String serial = headers.get("wechatpay-serial");
    if (timestamp == null || nonce == null || signature == null || serial == null) {
      throw new WebhookRejected("malformed", "missing Wechatpay-* headers");
    }
    if (rawBody == null) {
      throw new WebhookRejected("malformed", "no body");
    }
    java.security.PublicKey key =
        config
            .credentials()
            .platformKeys()
            .key(serial)
            .orElseThrow(
                () -> {
                  keyEvents.unknownSerial(config.credentials().mchid(), "notification");
                  return new WebhookRejected(
                      "unknown_serial", "Wechatpay-Serial names no configured platform key");
                });
    Instant signedAt = verifiedTimestamp(key, timestamp, nonce, signature, rawBody);
    JsonNode body = readObject(rawBody);
    String eventId = WechatOutcomes.text(body, "id");
    String eventType = WechatOutcomes.text(body, "event_type");
    JsonNode resource = body.path("resource");
    if (eventId == null || eventType == null || !resource.isObject()) {
      throw new WebhookRejected("malformed", "not a notification");
    }
    String rawHash = WechatSignatures.sha256Hex(rawBody);
    if (eventType.startsWith("TRANSACTION.")) {
      JsonNode tx = decrypt(resource);
      PspOutcome payment = WechatOutcomes.transaction(tx, null, rawHash);
      return new WebhookNotice(
          eventId,
          WebhookNotice.Kind.PAYMENT,
          WechatOutcomes.text(tx, "out_trade_no"),
          WechatOutcomes.text(tx, "transaction_id"),
          null,
          payment,
          null,
          signedAt);
    }
    if (eventType.startsWith("REFUND.")) {
      JsonNode refund = decrypt(resource);
      RefundOutcome outcome = WechatOutcomes.refund(refund, "refund_status", null, rawHash);
      return new WebhookNotice(
          eventId,
          WebhookNotice.Kind.REFUND,
          WechatOutcomes.text(refund, "out_trade_no"),
          WechatOutcomes.text(refund, "transaction_id"),
          WechatOutcomes.text(refund, "out_refund_no"),
          null,
          outcome,
          signedAt);
    }
    return new WebhookNotice(
        eventId, WebhookNotice.Kind.IGNORED, null, null, null, null, null, signedAt);
  }

  /** The signed timestamp of a delivery whose platform signature verifies, within tolerance. */
  private Instant verifiedTimestamp(
      java.security.PublicKey key, String timestamp, String nonce, String signature, byte[] rawBody)
      throws WebhookRejected {
    if (!WechatSignatures.verifyPlatform(key, timestamp, nonce, rawBody, signature)) {
      throw new WebhookRejected("bad_signature", "platform signature does not verify");
    }
    Instant signedAt;
    try {
      signedAt = Instant.ofEpochSecond(Long.parseLong(timestamp));
    } catch (NumberFormatException e) {
      throw new WebhookRejected("malformed", "timestamp is not a number");
    }
    Duration skew = Duration.between(signedAt, config.clock().instant()).abs();
    if (skew.compareTo(config.notificationTolerance()) > 0) {
      throw new WebhookRejected("stale_timestamp", "timestamp outside the tolerance");
    }
    return signedAt;
  }

  private JsonNode readObject(byte[] bytes) throws WebhookRejected {
    try {
      JsonNode node = json.readTree(bytes);
      if (node == null || !node.isObject()) {
        throw new WebhookRejected("malformed", "body is not a JSON object");
      }
      return node;
    } catch (JacksonException e) {
      throw new WebhookRejected("malformed", "body is not JSON");
    }
  }

  private JsonNode decrypt(JsonNode resource) throws WebhookRejected {
    String algorithm = WechatOutcomes.text(resource, "algorithm");
    String ciphertext = WechatOutcomes.text(resource, "ciphertext");
    String nonce = WechatOutcomes.text(resource, "nonce");
    String associated = WechatOutcomes.text(resource, "associated_data");
    if (!"AEAD_AES_256_GCM".equals(algorithm) || ciphertext == null || nonce == null) {
      throw new WebhookRejected("malformed", "resource is not AEAD_AES_256_GCM");
    }
    byte[] plain;
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(config.credentials().apiV3Key(), "AES"),
          new GCMParameterSpec(TAG_BITS, nonce.getBytes(StandardCharsets.UTF_8)));
      if (associated != null) {
        cipher.updateAAD(associated.getBytes(StandardCharsets.UTF_8));
      }
      plain = cipher.doFinal(Base64.getDecoder().decode(ciphertext));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new WebhookRejected("decrypt_failed", "resource does not decrypt");
    }
    JsonNode node;
    try {
      node = json.readTree(plain);
    } catch (JacksonException e) {
      throw new WebhookRejected("malformed", "decrypted resource is not JSON");
    }
    if (node == null || !node.isObject()) {
      throw new WebhookRejected("malformed", "decrypted resource is not a JSON object");
    }
    return node;
  }
}
