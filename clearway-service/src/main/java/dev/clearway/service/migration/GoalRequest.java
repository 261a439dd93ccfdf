package dev.clearway.service.migration;

/** The body of {@code POST /v1/goals/cancel}: the merchant's goal. */
public record GoalRequest(Long userId, String scene, String bizKey) {}
