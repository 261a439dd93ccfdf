package dev.clearway.sim.psp.wechat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The WeChat Pay v3 primitives the simulator needs: SHA256withRSA signatures (base64) and
 * AEAD_AES_256_GCM encryption of notification resources. Failures never carry key material.
 */
final class WechatCrypto {
  private static final String ALNUM =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private WechatCrypto() {}

  /**
   * The signed message of WeChat Pay v3: each header line followed by {@code \n}, then the body's
   * bytes exactly as sent or received, then {@code \n}.
   */
  static byte[] message(byte[] body, String... lines) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 128);
    for (String line : lines) {
      out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
      out.write('\n');
    }
    out.writeBytes(body);
    out.write('\n');
    return out.toByteArray();
  }

  static String sign(PrivateKey key, byte[] message) {
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initSign(key);
      s.update(message);
      return Base64.getEncoder().encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign with SHA256withRSA", e);
    }
  }

  static boolean verify(PublicKey key, byte[] message, String signatureBase64) {
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initVerify(key);
      s.update(message);
      return s.verify(Base64.getDecoder().decode(signatureBase64));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  /** base64(AES-256-GCM(plaintext)) with a 128-bit tag appended, as WeChat Pay sends it. */
  static String encrypt(byte[] apiV3Key, String nonce, String associatedData, byte[] plaintext) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.ENCRYPT_MODE,
          new SecretKeySpec(apiV3Key, "AES"),
          new GCMParameterSpec(128, nonce.getBytes(StandardCharsets.UTF_8)));
      cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
      byte[] out = cipher.doFinal(plaintext);
      return Base64.getEncoder().encodeToString(out);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot encrypt with AEAD_AES_256_GCM", e);
    }
  }

  /** A random string of {@code length} letters and digits (nonces). */
  static String nonce(int length) {
    StringBuilder out = new StringBuilder(length);
    for (int k = 0; k < length; k++) {
      out.append(ALNUM.charAt(RANDOM.nextInt(ALNUM.length())));
    }
    return out.toString();
  }
}
