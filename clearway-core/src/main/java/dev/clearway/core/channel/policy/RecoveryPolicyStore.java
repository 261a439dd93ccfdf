package dev.clearway.core.channel.policy;

import java.util.List;
import java.util.Optional;

/**
 * Where policy versions and their audit trail live (port; the JDBC implementation is in
 * clearway-store). Guarantees: a stored body never changes and stays loadable; at most one version
 * is ACTIVE and at most one CANDIDATE; every change is a compare-and-set on the row version and
 * commits together with its audit event, or not at all.
 */
public interface RecoveryPolicyStore {

  /**
   * Stores a new version with its event. Returns false, writing nothing, when the version already
   * exists or the row would be a second ACTIVE or CANDIDATE.
   */
  boolean insert(PolicyRecord record, PolicyEvent event);

  Optional<PolicyRecord> find(String version);

  /** The one ACTIVE or the one CANDIDATE version; any other status throws. */
  Optional<PolicyRecord> findSingle(PolicyStatus status);

  /**
   * Writes every record's status, percent, problems, dry-run report and previous active, each only
   * if its row is still at the record's {@code rowVersion} (which is then incremented), in the
   * given order, and appends {@code event}, all in one transaction. Returns false, writing nothing,
   * when any row moved meanwhile or the result would break the one-ACTIVE/one-CANDIDATE rule.
   */
  boolean apply(List<PolicyRecord> updates, PolicyEvent event);

  /** The audit trail of one version, oldest first. */
  List<PolicyEvent> events(String version);
}
