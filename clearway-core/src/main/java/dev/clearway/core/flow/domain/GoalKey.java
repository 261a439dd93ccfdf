package dev.clearway.core.flow.domain;

import java.util.Objects;

/**
 * The business goal: stable across attempts, and owned by one merchant. Two merchants may use the
 * same user id, scene and business key without touching each other's goal.
 */
public record GoalKey(String merchant, long userId, String scene, String bizKey) {
  /** The owner of rows written before goals were owned, and of unnamed merchant keys. */
  public static final String DEFAULT_MERCHANT = "default";

  public GoalKey {
    Objects.requireNonNull(merchant, "merchant");
    Objects.requireNonNull(scene, "scene");
    Objects.requireNonNull(bizKey, "bizKey");
  }

  /** A goal of the {@link #DEFAULT_MERCHANT} (single-merchant deployments, the laboratory). */
  public static GoalKey ofDefaultMerchant(long userId, String scene, String bizKey) {
    return new GoalKey(DEFAULT_MERCHANT, userId, scene, bizKey);
  }
}
