package dev.clearway.service.policy;

import dev.clearway.core.channel.policy.PolicyProblem;
import dev.clearway.core.channel.policy.PolicyRejected;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpStatus;

/**
 * The body of a refused policy command: the stable code of {@link PolicyRejected}, its message
 * (versions and codes, never the policy body) and the problems with their paths, if any.
 */
public record PolicyRefusal(String code, String message, List<PolicyProblem> problems) {

  /** Refusals caused by the state of the stored versions, not by the request itself. */
  private static final Set<String> STATE_CONFLICTS =
      Set.of(
          "version_exists",
          "not_validatable",
          "not_validated",
          "dry_run_missing",
          "dry_run_blocked",
          "rollout_in_progress",
          "not_in_rollout",
          "no_active",
          "no_rollout",
          "no_last_known_good",
          "not_live",
          "concurrent_change");

  public static PolicyRefusal of(PolicyRejected e) {
    String message = e.getMessage();
    String prefix = e.code() + ": ";
    return new PolicyRefusal(
        e.code(),
        message.startsWith(prefix) ? message.substring(prefix.length()) : message,
        e.problems());
  }

  /** 404 for an unknown version, 409 for a state conflict, else 422 (invalid input). */
  public static HttpStatus statusOf(String code) {
    if ("not_found".equals(code)) {
      return HttpStatus.NOT_FOUND;
    }
    return STATE_CONFLICTS.contains(code) ? HttpStatus.CONFLICT : HttpStatus.UNPROCESSABLE_CONTENT;
  }
}
