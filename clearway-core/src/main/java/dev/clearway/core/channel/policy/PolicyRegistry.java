package dev.clearway.core.channel.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The release path of recovery policies: DRAFT, schema and capability validation, dry run over
 * recorded history, hash-bucket gray rollout, promotion, and rollback to the last known good.
 *
 * <p>Guarantees: a refused command throws {@link PolicyRejected} with a stable code and writes
 * nothing; every state change is one compare-and-set in the store together with its audit event
 * (who, what, when, why), so of two concurrent commands on the same rows at most one wins (the
 * other gets {@code concurrent_change}); every version ever stored stays loadable through {@link
 * #version(String)}, so a recovery task can always read the version it pinned.
 */
public final class PolicyRegistry {

  /** The actor of state changes no person asked for (validation, dry run). */
  public static final String SYSTEM = "system";

  private static final RecoveryPolicy NO_POLICY = new RecoveryPolicy("none", List.of());

  private final RecoveryPolicyStore store;
  private final PolicyParser parser;
  private final Map<String, RecoveryCapabilities> channels;
  private final Clock clock;
  private final PolicyValidator validator = new PolicyValidator();
  private final DryRun dryRun = new DryRun();
  private final ConcurrentMap<String, RecoveryPolicy> loaded = new ConcurrentHashMap<>();

  public PolicyRegistry(
      RecoveryPolicyStore store,
      PolicyParser parser,
      Map<String, RecoveryCapabilities> channels,
      Clock clock) {
    this.store = store;
    this.parser = parser;
    this.channels = Map.copyOf(channels);
    this.clock = clock;
  }

  /**
   * Parses and stores a new DRAFT. Parse errors, a malformed version ({@code bad_version}) and an
   * existing version write nothing.
   */
  public PolicyRecord submit(String text, String actor) throws PolicyRejected {
    RecoveryPolicy policy = parser.parse(text);
    if (!PolicyValidator.isValidVersion(policy.version())) {
      throw new PolicyRejected("bad_version", "the version is not 1..64 letters, digits, . - _");
    }
    Instant now = clock.instant();
    PolicyRecord draft = PolicyRecord.fresh(policy.version(), text, PolicyStatus.DRAFT, actor, now);
    PolicyEvent event =
        new PolicyEvent(
            policy.version(),
            PolicyAction.SUBMIT,
            actor,
            null,
            now,
            "sha256=" + draft.bodySha256());
    if (!store.insert(draft, event)) {
      throw new PolicyRejected("version_exists", "version " + policy.version() + " exists");
    }
    return record(policy.version()).orElseThrow();
  }

  /** Validates a DRAFT (or re-validates): VALIDATED, or REJECTED with its problems. */
  public PolicyRecord validate(String version) throws PolicyRejected {
    PolicyRecord rec = require(version);
    switch (rec.status()) {
      case DRAFT, VALIDATED, REJECTED -> {}
      case CANDIDATE, ACTIVE, RETIRED, ROLLED_BACK ->
          throw new PolicyRejected("not_validatable", version + " is " + rec.status());
    }
    List<PolicyProblem> problems = validator.validate(version(version), channels);
    PolicyStatus to = problems.isEmpty() ? PolicyStatus.VALIDATED : PolicyStatus.REJECTED;
    Instant now = clock.instant();
    PolicyAction action = problems.isEmpty() ? PolicyAction.VALIDATE : PolicyAction.REJECT;
    cas(
        List.of(rec.moved(to, 0, now).withProblems(problems)),
        new PolicyEvent(version, action, SYSTEM, null, now, codes(problems)));
    return require(version);
  }

  /**
   * Runs a dry run of a VALIDATED or CANDIDATE version against the ACTIVE one over {@code history}
   * and records it on the version. Unmatched attempts and empty candidates are recorded as problems
   * ({@code dry_run_unmatched}, {@code dry_run_empty_candidate}) that block {@link #startRollout};
   * a budget jump is reported but does not block (the channel's rate limit still holds).
   */
  public DryRunReport dryRun(String version, List<RecordedAttempt> history) throws PolicyRejected {
    PolicyRecord rec = requireDryRunnable(version);
    return recordDryRun(rec, dryRun.run(activeOrNone(), version(version), channels, history));
  }

  /**
   * {@link #dryRun(String, List)} over the attempts {@code history} recorded since {@code from},
   * read page by page ({@link DryRun#replay}): bounded memory however long the history.
   */
  public DryRunReport dryRun(String version, RecordedHistory history, Instant from)
      throws PolicyRejected {
    PolicyRecord rec = requireDryRunnable(version);
    return recordDryRun(
        rec, dryRun.replay(activeOrNone(), version(version), channels, history, from));
  }

  private PolicyRecord requireDryRunnable(String version) throws PolicyRejected {
    PolicyRecord rec = require(version);
    switch (rec.status()) {
      case VALIDATED, CANDIDATE -> {}
      case DRAFT, REJECTED, ACTIVE, RETIRED, ROLLED_BACK ->
          throw new PolicyRejected("not_validated", version + " is " + rec.status());
    }
    return rec;
  }

  private RecoveryPolicy activeOrNone() {
    return store.findSingle(PolicyStatus.ACTIVE).map(r -> version(r.version())).orElse(NO_POLICY);
  }

  private DryRunReport recordDryRun(PolicyRecord rec, DryRunReport report) throws PolicyRejected {
    Instant now = clock.instant();
    cas(
        List.of(
            rec.moved(rec.status(), rec.rolloutPercent(), now)
                .withProblems(report.blockingProblems())
                .withDryRunReport(report.toText())),
        new PolicyEvent(rec.version(), PolicyAction.DRY_RUN, SYSTEM, null, now, summary(report)));
    return report;
  }

  /**
   * Starts the gray rollout of a VALIDATED, dry-run version to {@code percent} (1..100) of hash
   * buckets, or changes the percent of the version already in rollout (also resumes a pause).
   */
  public RolloutState startRollout(String version, int percent, String actor)
      throws PolicyRejected {
    if (percent < 1 || percent > 100) {
      throw new PolicyRejected("bad_percent", "percent must be within 1..100");
    }
    PolicyRecord rec = require(version);
    if (store.findSingle(PolicyStatus.ACTIVE).isEmpty()) {
      throw new PolicyRejected("no_active", "no ACTIVE policy to roll out against");
    }
    if (rec.status() != PolicyStatus.CANDIDATE) {
      requireRollable(rec);
    }
    Instant now = clock.instant();
    cas(
        List.of(rec.moved(PolicyStatus.CANDIDATE, percent, now)),
        new PolicyEvent(
            version,
            PolicyAction.ROLLOUT,
            actor,
            null,
            now,
            "percent=" + rec.rolloutPercent() + "->" + percent));
    return current();
  }

  /** The CANDIDATE becomes ACTIVE; the previous ACTIVE is RETIRED and is its last known good. */
  public RolloutState promote(String version, String actor) throws PolicyRejected {
    PolicyRecord rec = require(version);
    if (rec.status() != PolicyStatus.CANDIDATE) {
      throw new PolicyRejected("not_in_rollout", version + " is " + rec.status());
    }
    Instant now = clock.instant();
    Optional<PolicyRecord> active = store.findSingle(PolicyStatus.ACTIVE);
    List<PolicyRecord> updates = new ArrayList<>();
    active.ifPresent(a -> updates.add(a.moved(PolicyStatus.RETIRED, 0, now)));
    String previous = active.map(PolicyRecord::version).orElse(null);
    updates.add(rec.moved(PolicyStatus.ACTIVE, 0, now).withPreviousActive(previous));
    cas(
        updates,
        new PolicyEvent(version, PolicyAction.PROMOTE, actor, null, now, "previous=" + previous));
    return current();
  }

  /**
   * Rolls back: the CANDIDATE in rollout if there is one (new tasks use the stable version again),
   * else the ACTIVE version, whose last known good becomes ACTIVE again. Tasks keep their pinned
   * versions either way.
   */
  public RolloutState rollback(String actor, String reason) throws PolicyRejected {
    requireReason(reason);
    Instant now = clock.instant();
    Optional<PolicyRecord> candidate = store.findSingle(PolicyStatus.CANDIDATE);
    if (candidate.isPresent()) {
      PolicyRecord c = candidate.get();
      cas(
          List.of(c.moved(PolicyStatus.ROLLED_BACK, 0, now)),
          new PolicyEvent(
              c.version(), PolicyAction.ROLLBACK, actor, reason, now, "candidate rolled back"));
      return current();
    }
    PolicyRecord active =
        store
            .findSingle(PolicyStatus.ACTIVE)
            .orElseThrow(() -> new PolicyRejected("no_active", "no ACTIVE policy"));
    PolicyRecord good =
        Optional.ofNullable(active.previousActive())
            .flatMap(store::find)
            .filter(r -> r.status() == PolicyStatus.RETIRED)
            .orElseThrow(
                () ->
                    new PolicyRejected(
                        "no_last_known_good", active.version() + " has no last known good"));
    cas(
        List.of(
            active.moved(PolicyStatus.ROLLED_BACK, 0, now),
            good.moved(PolicyStatus.ACTIVE, 0, now)),
        new PolicyEvent(
            active.version(),
            PolicyAction.ROLLBACK,
            actor,
            reason,
            now,
            "restored=" + good.version()));
    return current();
  }

  /**
   * Pauses the rollout: the CANDIDATE stays named but gets 0 percent, so new tasks use the stable
   * version while tasks already on the candidate keep it. Resume with {@link #startRollout}.
   */
  public RolloutState pause(String actor, String reason) throws PolicyRejected {
    requireReason(reason);
    PolicyRecord c =
        store
            .findSingle(PolicyStatus.CANDIDATE)
            .orElseThrow(() -> new PolicyRejected("no_rollout", "no rollout to pause"));
    Instant now = clock.instant();
    cas(
        List.of(c.moved(PolicyStatus.CANDIDATE, 0, now)),
        new PolicyEvent(
            c.version(),
            PolicyAction.PAUSE,
            actor,
            reason,
            now,
            "percent=" + c.rolloutPercent() + "->0"));
    return current();
  }

  /**
   * Bootstrap: when no version is ACTIVE, validates {@code text} and stores it directly as ACTIVE.
   * When one is ACTIVE already (an earlier start, another node), changes nothing. Either way
   * returns the rollout state.
   */
  public RolloutState activateInitial(String text, String actor) throws PolicyRejected {
    if (store.findSingle(PolicyStatus.ACTIVE).isPresent()) {
      return current();
    }
    RecoveryPolicy policy = parser.parse(text);
    List<PolicyProblem> problems = validator.validate(policy, channels);
    if (!problems.isEmpty()) {
      throw new PolicyRejected("policy_invalid", codes(problems), problems);
    }
    Instant now = clock.instant();
    PolicyRecord rec = PolicyRecord.fresh(policy.version(), text, PolicyStatus.ACTIVE, actor, now);
    PolicyEvent event =
        new PolicyEvent(
            policy.version(),
            PolicyAction.ACTIVATE_INITIAL,
            actor,
            "bootstrap",
            now,
            "sha256=" + rec.bodySha256());
    if (!store.insert(rec, event) && store.findSingle(PolicyStatus.ACTIVE).isEmpty()) {
      throw new PolicyRejected("version_exists", "version " + policy.version() + " exists");
    }
    return current();
  }

  /** Which versions new recovery tasks pin now. */
  public RolloutState current() {
    Optional<PolicyRecord> active = store.findSingle(PolicyStatus.ACTIVE);
    Optional<PolicyRecord> candidate = store.findSingle(PolicyStatus.CANDIDATE);
    return new RolloutState(
        active.map(PolicyRecord::version).orElse(null),
        candidate.map(PolicyRecord::version).orElse(null),
        candidate.map(PolicyRecord::rolloutPercent).orElse(0));
  }

  /**
   * Any version ever stored, whatever its status (a task pinned to a rolled-back version still
   * reads it). Parsed once and cached; the body's SHA-256 is checked on load.
   *
   * @throws IllegalArgumentException if the version was never stored
   */
  public RecoveryPolicy version(String v) {
    RecoveryPolicy cached = loaded.get(v);
    if (cached != null) {
      return cached;
    }
    PolicyRecord rec =
        store
            .find(v)
            .orElseThrow(() -> new IllegalArgumentException("unknown recovery policy version"));
    if (!PolicyDigest.sha256Hex(rec.body()).equals(rec.bodySha256())) {
      throw new IllegalStateException("recovery policy " + v + ": body does not match its hash");
    }
    try {
      RecoveryPolicy policy = parser.parse(rec.body());
      loaded.putIfAbsent(v, policy);
      return policy;
    } catch (PolicyRejected e) {
      throw new IllegalStateException("stored recovery policy " + v + " no longer parses", e);
    }
  }

  public Optional<PolicyRecord> record(String version) {
    return store.find(version);
  }

  /** The audit trail of one version, oldest first. */
  public List<PolicyEvent> audit(String version) {
    return store.events(version);
  }

  private PolicyRecord require(String version) throws PolicyRejected {
    return store
        .find(version)
        .orElseThrow(() -> new PolicyRejected("not_found", "no version " + version));
  }

  private void requireRollable(PolicyRecord rec) throws PolicyRejected {
    if (rec.status() != PolicyStatus.VALIDATED) {
      throw new PolicyRejected("not_validated", rec.version() + " is " + rec.status());
    }
    if (rec.dryRunReport() == null) {
      throw new PolicyRejected("dry_run_missing", rec.version() + " has no dry run");
    }
    if (!rec.problems().isEmpty()) {
      throw new PolicyRejected("dry_run_blocked", codes(rec.problems()), rec.problems());
    }
    Optional<PolicyRecord> other = store.findSingle(PolicyStatus.CANDIDATE);
    if (other.isPresent()) {
      throw new PolicyRejected(
          "rollout_in_progress", other.get().version() + " is rolling out already");
    }
  }

  private static void requireReason(String reason) throws PolicyRejected {
    if (reason == null || reason.isBlank()) {
      throw new PolicyRejected("reason_required", "say why");
    }
  }

  private void cas(List<PolicyRecord> updates, PolicyEvent event) throws PolicyRejected {
    if (!store.apply(updates, event)) {
      throw new PolicyRejected(
          "concurrent_change", "policy " + event.version() + " changed meanwhile; reload");
    }
  }

  private static String codes(List<PolicyProblem> problems) {
    return problems.stream().map(PolicyProblem::code).distinct().toList().toString();
  }

  private static String summary(DryRunReport r) {
    return "total="
        + r.total()
        + " unmatched="
        + r.unmatched().count()
        + " empty_candidates="
        + r.emptyCandidates().count()
        + " changed="
        + r.changedRules().count()
        + " budget_exceeded="
        + r.budgetExceeded().size();
  }
}
