package dev.clearway.core.channel.decision;

import dev.clearway.core.channel.spi.CreatePayment;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The hash of a create request, fixed when the attempt is created: a transport replay must hash to
 * the same value, or it is refused before it leaves the process.
 */
public final class CreateRequestHash {

  private CreateRequestHash() {}

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  public static String of(long channelAccountId, CreatePayment request) {
    String canonical =
        String.join(
            "\n",
            Long.toString(channelAccountId),
            request.idempotencyKey(),
            request.merchantReference(),
            Long.toString(request.amount()),
            request.currency(),
            request.paymentMethod(),
            request.description() == null ? "" : request.description());
    if (!request.party().isNone()) {
      // Only a party changes the canonical form: the hashes of direct payments stay as they were.
      canonical +=
          "\nparty\n"
              + nullToEmpty(request.party().subMerchant())
              + "\n"
              + nullToEmpty(request.party().payer());
    }
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 missing", e);
    }
  }
}
