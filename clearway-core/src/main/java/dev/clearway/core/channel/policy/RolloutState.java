package dev.clearway.core.channel.policy;

/**
 * Which policy version new recovery tasks use: the stable (ACTIVE) version, and a candidate for
 * {@code candidatePercent} of hash buckets. {@code candidateVersion} is null when nothing is
 * rolling out; a paused rollout keeps its candidate at 0 percent. {@code stableVersion} is null
 * only before the first policy was activated.
 */
public record RolloutState(String stableVersion, String candidateVersion, int candidatePercent) {

  public RolloutState {
    if (candidatePercent < 0 || candidatePercent > 100) {
      throw new IllegalArgumentException("candidatePercent must be within 0..100");
    }
    if (candidateVersion == null && candidatePercent != 0) {
      throw new IllegalArgumentException("a percent needs a candidate");
    }
  }

  /**
   * The version a new recovery task for {@code attemptKey} pins: the candidate when the key's
   * bucket is below the percent, else the stable version. The same key and state give the same
   * answer.
   *
   * @throws IllegalStateException if no policy is active and the key is not on a candidate
   */
  public String versionFor(String attemptKey) {
    if (candidateVersion != null && PolicyRollout.onCandidate(attemptKey, candidatePercent)) {
      return candidateVersion;
    }
    if (stableVersion == null) {
      throw new IllegalStateException("no active recovery policy");
    }
    return stableVersion;
  }

  public boolean rollingOut() {
    return candidateVersion != null;
  }
}
