package dev.clearway.core.channel.policy;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One stored policy version. The body and its SHA-256 never change once stored; the other fields
 * change only through {@link RecoveryPolicyStore#apply}, by compare-and-set on {@code rowVersion}.
 *
 * @param problems validation problems (empty unless REJECTED)
 * @param dryRunReport the text of the latest dry run, or null if none ran
 * @param previousActive for a version that has been ACTIVE: the version that was ACTIVE before it
 *     (its last known good), or null
 */
public record PolicyRecord(
    String version,
    String body,
    String bodySha256,
    PolicyStatus status,
    int rolloutPercent,
    List<PolicyProblem> problems,
    String dryRunReport,
    String previousActive,
    String createdBy,
    Instant createdAt,
    Instant updatedAt,
    long rowVersion) {

  public PolicyRecord {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(bodySha256, "bodySha256");
    Objects.requireNonNull(status, "status");
    problems = List.copyOf(problems);
  }

  /** A new DRAFT (or, for the bootstrap, ACTIVE) row at row version 0. */
  public static PolicyRecord fresh(
      String version, String body, PolicyStatus status, String actor, Instant now) {
    return new PolicyRecord(
        version,
        body,
        PolicyDigest.sha256Hex(body),
        status,
        0,
        List.of(),
        null,
        null,
        actor,
        now,
        now,
        0);
  }

  /** The next state of this row: same row version (the CAS expectation), new status and percent. */
  public PolicyRecord moved(PolicyStatus to, int percent, Instant now) {
    return new PolicyRecord(
        version,
        body,
        bodySha256,
        to,
        percent,
        problems,
        dryRunReport,
        previousActive,
        createdBy,
        createdAt,
        now,
        rowVersion);
  }

  public PolicyRecord withProblems(List<PolicyProblem> newProblems) {
    return new PolicyRecord(
        version,
        body,
        bodySha256,
        status,
        rolloutPercent,
        newProblems,
        dryRunReport,
        previousActive,
        createdBy,
        createdAt,
        updatedAt,
        rowVersion);
  }

  public PolicyRecord withDryRunReport(String report) {
    return new PolicyRecord(
        version,
        body,
        bodySha256,
        status,
        rolloutPercent,
        problems,
        report,
        previousActive,
        createdBy,
        createdAt,
        updatedAt,
        rowVersion);
  }

  public PolicyRecord withPreviousActive(String previous) {
    return new PolicyRecord(
        version,
        body,
        bodySha256,
        status,
        rolloutPercent,
        problems,
        dryRunReport,
        previous,
        createdBy,
        createdAt,
        updatedAt,
        rowVersion);
  }
}
