package dev.clearway.core.domain;

import java.util.Objects;

/** The business goal: stable across attempts (seed 000 section 1). */
public record GoalKey(long userId, String scene, String bizKey) {
  public GoalKey {
    Objects.requireNonNull(scene, "scene");
    Objects.requireNonNull(bizKey, "bizKey");
  }
}
