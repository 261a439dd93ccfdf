package dev.clearway.core.channel.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link RecoveryPolicyStore} in memory with the same guarantees as the database one (CAS on row
 * versions, one ACTIVE and one CANDIDATE, a change and its event all or nothing); every method
 * holds the store's lock. For tests and single-process tools; lost at exit.
 */
public final class InMemoryRecoveryPolicyStore implements RecoveryPolicyStore {

  private final Map<String, PolicyRecord> rows = new HashMap<>();
  private final List<PolicyEvent> events = new ArrayList<>();

  @Override
  public synchronized boolean insert(PolicyRecord record, PolicyEvent event) {
    if (rows.containsKey(record.version())) {
      return false;
    }
    Map<String, PolicyRecord> next = new HashMap<>(rows);
    next.put(record.version(), withRowVersion(record, 0));
    if (!singles(next)) {
      return false;
    }
    rows.putAll(next);
    events.add(event);
    return true;
  }

  @Override
  public synchronized Optional<PolicyRecord> find(String version) {
    return Optional.ofNullable(rows.get(version));
  }

  @Override
  public synchronized Optional<PolicyRecord> findSingle(PolicyStatus status) {
    requireSingleStatus(status);
    return rows.values().stream().filter(r -> r.status() == status).findFirst();
  }

  @Override
  public synchronized boolean apply(List<PolicyRecord> updates, PolicyEvent event) {
    Map<String, PolicyRecord> next = new HashMap<>(rows);
    for (PolicyRecord update : updates) {
      PolicyRecord stored = next.get(update.version());
      if (stored == null || stored.rowVersion() != update.rowVersion()) {
        return false;
      }
      next.put(update.version(), withRowVersion(update, update.rowVersion() + 1));
    }
    if (!singles(next)) {
      return false;
    }
    rows.putAll(next);
    events.add(event);
    return true;
  }

  @Override
  public synchronized List<PolicyEvent> events(String version) {
    return events.stream().filter(e -> e.version().equals(version)).toList();
  }

  static void requireSingleStatus(PolicyStatus status) {
    switch (status) {
      case ACTIVE, CANDIDATE -> {}
      case DRAFT, VALIDATED, REJECTED, RETIRED, ROLLED_BACK ->
          throw new IllegalArgumentException(status + " is not a single-row status");
    }
  }

  private static boolean singles(Map<String, PolicyRecord> state) {
    long active = state.values().stream().filter(r -> r.status() == PolicyStatus.ACTIVE).count();
    long candidate =
        state.values().stream().filter(r -> r.status() == PolicyStatus.CANDIDATE).count();
    return active <= 1 && candidate <= 1;
  }

  private static PolicyRecord withRowVersion(PolicyRecord r, long rowVersion) {
    return new PolicyRecord(
        r.version(),
        r.body(),
        r.bodySha256(),
        r.status(),
        r.rolloutPercent(),
        r.problems(),
        r.dryRunReport(),
        r.previousActive(),
        r.createdBy(),
        r.createdAt(),
        r.updatedAt(),
        rowVersion);
  }
}
