package dev.clearway.app.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code clearway.*} settings of an embedded engine.
 *
 * @param instanceId prefix of this process's lease tokens (defaults to a random id)
 * @param workers advancing worker threads
 * @param timing {@code production} (seconds to minutes) or {@code compressed} (milliseconds; tests
 *     and demos)
 * @param migrate whether to apply Clearway's migrations at start (own history table)
 */
@ConfigurationProperties(prefix = "clearway")
public record ClearwayProperties(
    String instanceId, Integer workers, String timing, Boolean migrate) {

  public String instanceIdOrRandom() {
    return instanceId != null && !instanceId.isBlank()
        ? instanceId
        : "cw-" + Long.toString(System.nanoTime() & 0xffffffL, 36);
  }

  public int workersOrDefault() {
    return workers == null ? 8 : workers;
  }

  public boolean compressed() {
    return "compressed".equalsIgnoreCase(timing);
  }

  public boolean migrateOrDefault() {
    return migrate == null || migrate;
  }
}
