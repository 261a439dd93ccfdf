package dev.clearway.sharding;

import dev.clearway.core.flow.domain.GoalKey;

/** Goals whose owner lives on a chosen shard of the four-shard test layout. */
final class ShardedGoals {
  private static final int SHARDS = 4;

  private ShardedGoals() {}

  /** A goal of merchant {@code m1} whose owner the layout routes to {@code shard}. */
  static GoalKey on(int shard, String bizKey) {
    for (long user = 1; ; user++) {
      if (ShardKeys.ofOwner("m1", user, SHARDS) == shard) {
        return new GoalKey("m1", user, "renew", bizKey);
      }
    }
  }
}
