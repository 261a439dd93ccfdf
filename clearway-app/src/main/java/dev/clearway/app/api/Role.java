package dev.clearway.app.api;

/** Who holds a key: a merchant calls the payment API, operators and approvers run manual review. */
public enum Role {
  MERCHANT,
  OPERATOR,
  APPROVER
}
