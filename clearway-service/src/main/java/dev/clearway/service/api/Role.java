package dev.clearway.service.api;

/**
 * Who holds a key: a merchant calls the payment API, operators and approvers run manual review and
 * policy releases, a metrics key only scrapes {@code /actuator/prometheus}.
 */
public enum Role {
  MERCHANT,
  OPERATOR,
  APPROVER,
  METRICS;

  /** Operators and approvers are people: their keys must name them. */
  public boolean namesAPerson() {
    return switch (this) {
      case OPERATOR, APPROVER -> true;
      case MERCHANT, METRICS -> false;
    };
  }

  /** Roles that get a key generated for the run when none is configured. */
  public boolean generatedWhenMissing() {
    return switch (this) {
      case MERCHANT, OPERATOR, APPROVER -> true;
      case METRICS -> false;
    };
  }

  /** The environment variable that configures this role's keys. */
  public String variable() {
    return "CLEARWAY_" + name() + "_KEYS";
  }

  /** The lower-case name used in configuration and messages. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
