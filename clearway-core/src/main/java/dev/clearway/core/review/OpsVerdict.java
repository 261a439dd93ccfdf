package dev.clearway.core.review;

import java.util.Objects;

/**
 * Whether a command applies to its target as it stands: the target's next status, or a refusal with
 * a stable code (the API answers it as is) and a message for people.
 */
public record OpsVerdict(String target, String code, String message) {

  public static OpsVerdict allowed(String target) {
    return new OpsVerdict(Objects.requireNonNull(target, "target"), null, null);
  }

  public static OpsVerdict refused(String code, String message) {
    return new OpsVerdict(null, code, message);
  }

  public boolean isAllowed() {
    return target != null;
  }
}
