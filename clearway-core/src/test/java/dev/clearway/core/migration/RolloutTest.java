package dev.clearway.core.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.migration.domain.Rollout;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rollout: stable buckets, the share in basis points, the allow and deny lists. */
class RolloutTest {

  @Test
  void aUsersBucketIsStableAndTheShareIsRoughlyTheBasisPoints() {
    assertThat(Rollout.bucket("m1", 42)).isEqualTo(Rollout.bucket("m1", 42));
    assertThat(Rollout.bucket("m1", 42)).isBetween(0, 9_999);
    Rollout quarter = new Rollout(2_500, Set.of(), Set.of());
    int in = 0;
    for (long user = 0; user < 20_000; user++) {
      if (quarter.includes("m1", user)) {
        in++;
      }
    }
    assertThat(in).isBetween(4_700, 5_300);
  }

  @Test
  void raisingTheShareOnlyAddsUsers() {
    Rollout ten = new Rollout(1_000, Set.of(), Set.of());
    Rollout fifty = new Rollout(5_000, Set.of(), Set.of());
    for (long user = 0; user < 5_000; user++) {
      if (ten.includes("m2", user)) {
        assertThat(fifty.includes("m2", user)).isTrue();
      }
    }
  }

  @Test
  void theDenyListWinsOverTheAllowListAndTheShare() {
    Rollout r = new Rollout(Rollout.ALL, Set.of("m1:7", "m1:8"), Set.of("m1:7"));
    assertThat(r.includes("m1", 7)).isFalse();
    assertThat(r.includes("m1", 9)).isTrue();
    Rollout none = new Rollout(0, Set.of("m1:8"), Set.of());
    assertThat(none.includes("m1", 8)).isTrue();
    assertThat(none.includes("m1", 9)).isFalse();
    assertThat(none.includes("m2", 8)).isFalse();
  }

  @Test
  void basisPointsOutsideTheRangeAreRefused() {
    assertThatThrownBy(() -> new Rollout(10_001, Set.of(), Set.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Rollout(-1, Set.of(), Set.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
