package dev.clearway.psp.wechat;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.Base64;
import java.util.HexFormat;

/**
 * SHA256withRSA signing and verification as WeChat Pay v3 uses them, nonces and SHA-256 hex
 * digests. Never exposes key material in an exception.
 */
final class WechatSignatures {
  private static final String ALNUM =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private WechatSignatures() {}

  static String sign(PrivateKey key, String message) {
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initSign(key);
      s.update(message.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign with SHA256withRSA", e);
    }
  }

  /** Whether {@code signature} (base64) verifies over {@code "timestamp\nnonce\nbody\n"}. */
  static boolean verifyPlatform(
      PublicKey key, String timestamp, String nonce, byte[] body, String signature) {
    if (timestamp == null || nonce == null || signature == null) {
      return false;
    }
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initVerify(key);
      s.update((timestamp + "\n" + nonce + "\n").getBytes(StandardCharsets.UTF_8));
      s.update(body);
      s.update((byte) '\n');
      return s.verify(Base64.getDecoder().decode(signature));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  static String nonce(int length) {
    StringBuilder out = new StringBuilder(length);
    for (int k = 0; k < length; k++) {
      out.append(ALNUM.charAt(RANDOM.nextInt(ALNUM.length())));
    }
    return out.toString();
  }

  static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 missing", e);
    }
  }
}
