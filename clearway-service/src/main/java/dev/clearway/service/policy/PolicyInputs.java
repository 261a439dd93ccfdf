package dev.clearway.service.policy;

import dev.clearway.core.channel.policy.PolicyRegistry;
import dev.clearway.core.channel.policy.PolicyRejected;
import dev.clearway.core.channel.policy.RolloutState;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** The checks of the policy API's inputs: a policy's text, a reason, the version rolled back. */
final class PolicyInputs {
  private PolicyInputs() {}

  /**
   * Rollback acts on whatever is live; naming a version that is neither in rollout nor ACTIVE is
   * refused so that a stale page cannot roll back a version it did not show.
   */
  static void requireLive(PolicyRegistry r, String version) throws PolicyRejected {
    RolloutState state = r.current();
    String target =
        state.candidateVersion() != null ? state.candidateVersion() : state.stableVersion();
    if (!version.equals(target)) {
      throw new PolicyRejected(
          "not_live", "only the version in rollout, else the ACTIVE one, can be rolled back");
    }
  }

  static String reason(ReasonRequest body) throws PolicyRejected {
    String reason = body == null ? null : body.reason();
    if (reason != null && reason.length() > PolicyController.REASON_MAX) {
      throw new PolicyRejected(
          "reason_too_long", "reason is longer than " + PolicyController.REASON_MAX);
    }
    return reason;
  }

  static String utf8(byte[] body) throws PolicyRejected {
    if (body == null) {
      return "";
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      throw new PolicyRejected("bad_encoding", "a policy is UTF-8 text");
    }
  }
}
