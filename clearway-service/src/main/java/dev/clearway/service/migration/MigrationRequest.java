package dev.clearway.service.migration;

/**
 * The body of {@code POST /ops/migration}.
 *
 * @param rolledBack true to keep every new goal on the legacy path, false to route by the rollout
 * @param reason why (required, at most 500 characters)
 */
public record MigrationRequest(Boolean rolledBack, String reason) {}
