package dev.clearway.core.channel.policy;

/** The PSP operation whose unknown outcome a policy rule recovers. */
public enum Operation {
  CREATE,
  REFUND
}
