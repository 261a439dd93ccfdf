package dev.clearway.core.channel.policy;

/** What an audit event of the policy registry records. */
public enum PolicyAction {
  SUBMIT,
  VALIDATE,
  REJECT,
  DRY_RUN,
  ROLLOUT,
  PAUSE,
  PROMOTE,
  ROLLBACK,
  ACTIVATE_INITIAL
}
