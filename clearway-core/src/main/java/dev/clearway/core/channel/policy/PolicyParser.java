package dev.clearway.core.channel.policy;

/**
 * Turns a policy document into a {@link RecoveryPolicy} (port; the YAML implementation lives in
 * clearway-psp). Checks the schema only: whether the rules make sense for the channels is {@link
 * PolicyValidator}'s job.
 */
public interface PolicyParser {

  /**
   * @throws PolicyRejected with a stable code and every schema problem found, each message starting
   *     with its path (such as {@code rules[2].delays[1]})
   */
  RecoveryPolicy parse(String text) throws PolicyRejected;
}
