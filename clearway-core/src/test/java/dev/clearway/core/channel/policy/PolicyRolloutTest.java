package dev.clearway.core.channel.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PolicyRolloutTest {

  @Test
  void bucketsAreStableAndKnown() {
    // Pinned values: a change of the hash would move live tasks between versions.
    // (first 8 bytes of SHA-256("attempt-1") as unsigned big-endian) mod 100 = 42.
    for (int i = 0; i < 5; i++) {
      assertThat(PolicyRollout.bucket("attempt-1")).isEqualTo(42);
    }
    assertThat(PolicyRollout.bucket("pay-42")).isEqualTo(60);
    assertThat(new RolloutState("v1", "v2", 42).versionFor("attempt-1")).isEqualTo("v1");
    assertThat(new RolloutState("v1", "v2", 43).versionFor("attempt-1")).isEqualTo("v2");
  }

  @Test
  void shareOfCandidateIsNearThePercent() {
    for (int percent : new int[] {1, 10, 50, 90}) {
      RolloutState state = new RolloutState("v1", "v2", percent);
      int onCandidate = 0;
      for (int i = 0; i < 10_000; i++) {
        if (state.versionFor("attempt-" + i).equals("v2")) {
          onCandidate++;
        }
      }
      // 10,000 keys: the binomial standard deviation is at most 50, allow 4 of them.
      assertThat(onCandidate)
          .as("percent " + percent)
          .isBetween(percent * 100 - 200, percent * 100 + 200);
    }
  }

  @Test
  void raisingThePercentKeepsEarlierKeysOnTheCandidate() {
    RolloutState ten = new RolloutState("v1", "v2", 10);
    RolloutState fifty = new RolloutState("v1", "v2", 50);
    for (int i = 0; i < 2_000; i++) {
      String key = "k" + i;
      if (ten.versionFor(key).equals("v2")) {
        assertThat(fifty.versionFor(key)).isEqualTo("v2");
      }
    }
  }

  @Test
  void edges() {
    assertThat(new RolloutState("v1", "v2", 0).versionFor("a")).isEqualTo("v1");
    assertThat(new RolloutState("v1", "v2", 100).versionFor("a")).isEqualTo("v2");
    assertThat(new RolloutState("v1", null, 0).versionFor("a")).isEqualTo("v1");
    assertThatThrownBy(() -> new RolloutState(null, null, 0).versionFor("a"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new RolloutState("v1", null, 5))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
