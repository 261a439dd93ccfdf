package dev.clearway.lab.sim;

/**
 * The keys both simulated Stripe-style accounts of {@code clearway sim --channels} accept and sign
 * with. {@link #toString()} never prints them.
 *
 * @param apiKey what clients send as {@code Authorization: Bearer <key>}
 * @param webhookSecret the webhook endpoint's signing secret
 */
public record StripeKeys(String apiKey, String webhookSecret) {
  public StripeKeys {
    if (apiKey == null || apiKey.isBlank()) {
      throw new IllegalArgumentException(
          SimCommandNames.STRIPE_API_KEY_ENV + " must be set to a non-blank key");
    }
    if (webhookSecret == null || webhookSecret.isBlank()) {
      throw new IllegalArgumentException(
          SimCommandNames.STRIPE_WEBHOOK_SECRET_ENV + " must be set to a non-blank secret");
    }
  }

  @Override
  public String toString() {
    return "StripeKeys[***]";
  }
}
