package dev.clearway.lab.sim;

/** The environment variables the simulators' secrets come from. */
public final class SimCommandNames {
  /** The secret the simulated wallet signs its callbacks with. */
  public static final String WEBHOOK_SECRET_ENV = "CLEARWAY_SIM_WEBHOOK_SECRET";

  /** The business contract's HMAC secret. */
  public static final String BUSINESS_SECRET_ENV = "CLEARWAY_BUSINESS_SECRET";

  private SimCommandNames() {}
}
