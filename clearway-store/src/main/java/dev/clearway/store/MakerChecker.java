package dev.clearway.store;

import dev.clearway.core.review.PersonNames;
import java.util.Optional;

/**
 * The rule every decision on a manual command obeys (a flow's, another target's, a difference's):
 * the command is still PROPOSED, and the person deciding is another than the one who proposed it,
 * compared by normalised name ({@link PersonNames}).
 */
public final class MakerChecker {

  /** Why a decision is refused: a stable code and its message. */
  public record Refusal(String code, String message) {}

  private MakerChecker() {}

  /**
   * Why {@code decider} may not decide a command in {@code state} proposed by {@code proposer};
   * empty when they may.
   */
  public static Optional<Refusal> refusal(String state, String proposer, String decider) {
    if (!"PROPOSED".equals(state)) {
      return Optional.of(new Refusal("command_not_open", "the command is " + state));
    }
    if (PersonNames.same(proposer, decider)) {
      return Optional.of(
          new Refusal(
              "same_person", "a command must be decided by another person than its proposer"));
    }
    return Optional.empty();
  }
}
