package dev.clearway.lab.sim;

/** The environment variables the simulators' secrets come from. */
public final class SimCommandNames {
  /** The secret the simulated wallet signs its callbacks with. */
  public static final String WEBHOOK_SECRET_ENV = "CLEARWAY_SIM_WEBHOOK_SECRET";

  /** The business contract's HMAC secret. */
  public static final String BUSINESS_SECRET_ENV = "CLEARWAY_BUSINESS_SECRET";

  /** The API key of the simulated Stripe-style accounts ({@code sim --channels}). */
  public static final String STRIPE_API_KEY_ENV = "CLEARWAY_SIM_STRIPE_API_KEY";

  /** The webhook signing secret of the simulated Stripe-style accounts. */
  public static final String STRIPE_WEBHOOK_SECRET_ENV = "CLEARWAY_SIM_STRIPE_WEBHOOK_SECRET";

  private SimCommandNames() {}
}
