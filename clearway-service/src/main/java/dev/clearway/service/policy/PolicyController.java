package dev.clearway.service.policy;

import dev.clearway.core.channel.policy.DryRunReport;
import dev.clearway.core.channel.policy.PolicyRecord;
import dev.clearway.core.channel.policy.PolicyRegistry;
import dev.clearway.core.channel.policy.PolicyRejected;
import dev.clearway.core.channel.policy.RecordedHistory;
import dev.clearway.core.channel.policy.RolloutState;
import dev.clearway.core.review.PersonNames;
import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeyFilter;
import dev.clearway.service.api.ApiKeys.Principal;
import dev.clearway.service.api.Page;
import dev.clearway.service.api.PageCursor;
import dev.clearway.service.api.Refusal;
import dev.clearway.service.api.Role;
import dev.clearway.store.channel.JdbcPolicyVersions;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The release path of recovery policies over HTTP: submit a YAML version, validate it against the
 * channels' capabilities, dry-run it over the recorded attempts of the last {@value #HISTORY_DAYS}
 * days (read page by page, so its memory does not grow with the history), roll it out to a share of
 * hash buckets, promote it, pause or roll back. Operators do everything but promote and rollback,
 * which need an approver; the approver who promotes a version must not be the person who submitted
 * it (people, not keys, compared by their normalised name: one person holding both an operator and
 * an approver key is still one person). Every state change is audited by the registry with the
 * caller's person name. Policy bodies are never logged.
 */
@RestController
@RequestMapping(path = "/ops/policies", produces = MediaType.APPLICATION_JSON_VALUE)
public class PolicyController {
  private static final Logger log = LoggerFactory.getLogger(PolicyController.class);

  static final int HISTORY_DAYS = 7;
  static final int REASON_MAX = 500;

  private final ObjectProvider<PolicyRegistry> registry;
  private final RecordedHistory history;
  private final JdbcPolicyVersions versions;
  private final Clock clock;

  public PolicyController(
      ObjectProvider<PolicyRegistry> registry,
      RecordedHistory history,
      JdbcPolicyVersions versions,
      ObjectProvider<Clock> clock) {
    this.registry = registry;
    this.history = history;
    this.versions = versions;
    this.clock = clock.getIfAvailable(Clock::systemUTC);
  }

  @Operation(
      summary =
          "The rollout state and a page of the stored versions with their status, newest first"
              + " (cursor and limit page the versions)")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(
      status = 400,
      code = "invalid_cursor",
      message = "cursor must be the nextCursor of a previous page")
  @GetMapping
  public PolicyOverview overview(
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    PageCursor.TimeKey after = PageCursor.timeKey(cursor);
    PolicyRegistry r = registry();
    List<JdbcPolicyVersions.Summary> rows =
        versions.newestFirst(
            after == null ? null : new JdbcPolicyVersions.VersionKey(after.at(), after.key()),
            size + 1);
    return new PolicyOverview(
        r.current(), Page.of(rows, size, v -> PageCursor.after(v.createdAt(), v.version(), true)));
  }

  @Operation(
      summary =
          "One version (body, status, problems, dry run) and a page of its audit trail, newest"
              + " first (cursor and limit page the trail)")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(status = 404, code = "not_found", message = "no such policy version")
  @Refusal(
      status = 400,
      code = "invalid_cursor",
      message = "cursor must be the nextCursor of a previous page")
  @GetMapping("/{version}")
  public PolicyDetail version(
      @PathVariable("version") String version,
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit)
      throws PolicyRejected {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    PolicyRegistry r = registry();
    PolicyRecord rec =
        r.record(version)
            .orElseThrow(() -> new PolicyRejected("not_found", "no such policy version"));
    return new PolicyDetail(
        rec,
        Page.byId(
            versions.audit(version, before, size + 1), size, JdbcPolicyVersions.AuditEvent::id));
  }

  @Operation(summary = "Submit a policy as YAML (operator): stored as DRAFT")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(status = 403, code = "forbidden", message = "this needs an operator key")
  @Refusal(status = 409, code = "version_exists", message = "version 2026-12-01 already exists")
  @Refusal(status = 422, code = "bad_encoding", message = "the policy is not UTF-8")
  @Refusal(
      status = 422,
      code = "bad_version",
      message = "the version is not 1..64 letters, digits, '.', '_' or '-'")
  @Refusal(status = 422, code = "policy_invalid", message = "unknown_field, percent_out_of_range")
  @ApiResponse(responseCode = "201", description = "created")
  @PostMapping(
      consumes = {
        MediaType.TEXT_PLAIN_VALUE,
        MediaType.APPLICATION_YAML_VALUE,
        "application/x-yaml",
        "text/yaml"
      })
  public ResponseEntity<PolicyRecord> submit(
      @RequestBody(required = false) byte[] body, HttpServletRequest request)
      throws PolicyRejected {
    Principal operator = principal(request, Role.OPERATOR);
    PolicyRegistry r = registry();
    PolicyRecord draft = r.submit(PolicyInputs.utf8(body), operator.id());
    log.info("recovery policy {} submitted by {}", draft.version(), operator.id());
    return ResponseEntity.status(HttpStatus.CREATED).body(draft);
  }

  @Operation(summary = "Validate a version (operator): VALIDATED, or REJECTED with its problems")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(status = 403, code = "forbidden", message = "this needs an operator key")
  @Refusal(status = 404, code = "not_found", message = "no such policy version")
  @Refusal(status = 409, code = "not_validatable", message = "2026-12-01 is ACTIVE")
  @PostMapping("/{version}/validate")
  public PolicyRecord validate(@PathVariable("version") String version, HttpServletRequest request)
      throws PolicyRejected {
    principal(request, Role.OPERATOR);
    PolicyRecord rec = registry().validate(version);
    log.info("recovery policy {} validated: {}", rec.version(), rec.status());
    return rec;
  }

  @Operation(
      summary =
          "Dry-run a version over the recorded attempts of the last 7 days (operator), read page"
              + " by page")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(status = 403, code = "forbidden", message = "this needs an operator key")
  @Refusal(status = 404, code = "not_found", message = "no such policy version")
  @Refusal(status = 409, code = "not_validated", message = "2026-12-01 is DRAFT")
  @PostMapping("/{version}/dry-run")
  public DryRunReport dryRun(@PathVariable("version") String version, HttpServletRequest request)
      throws PolicyRejected {
    principal(request, Role.OPERATOR);
    PolicyRegistry r = registry();
    DryRunReport report =
        r.dryRun(version, history, clock.instant().minus(Duration.ofDays(HISTORY_DAYS)));
    log.info(
        "recovery policy {} dry run over {} attempts, clean={}",
        report.candidateVersion(),
        report.total(),
        report.clean());
    return report;
  }

  @Operation(summary = "Roll a version out to a percent of hash buckets, or change it (operator)")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(status = 403, code = "forbidden", message = "this needs an operator key")
  @Refusal(status = 404, code = "not_found", message = "no such policy version")
  @Refusal(status = 409, code = "no_active", message = "no ACTIVE policy to roll out against")
  @Refusal(status = 409, code = "not_validated", message = "2026-12-01 is DRAFT")
  @Refusal(status = 409, code = "dry_run_missing", message = "2026-12-01 has no dry run")
  @Refusal(status = 409, code = "dry_run_blocked", message = "the dry run found blocking problems")
  @Refusal(status = 409, code = "rollout_in_progress", message = "another version is rolling out")
  @Refusal(
      status = 409,
      code = "concurrent_change",
      message = "the rollout changed meanwhile; read it again")
  @Refusal(status = 422, code = "bad_percent", message = "percent must be within 1..100")
  @PostMapping(path = "/{version}/rollout", consumes = MediaType.APPLICATION_JSON_VALUE)
  public RolloutState rollout(
      @PathVariable("version") String version,
      @RequestBody(required = false) RolloutRequest body,
      HttpServletRequest request)
      throws PolicyRejected {
    Principal operator = principal(request, Role.OPERATOR);
    PolicyRegistry r = registry();
    int percent = body == null || body.percent() == null ? 0 : body.percent();
    RolloutState state = r.startRollout(version, percent, operator.id());
    log.info("recovery policy {} rolled out to {}% by {}", version, percent, operator.id());
    return state;
  }

  @Operation(summary = "Promote the version in rollout to ACTIVE (approver, not its submitter)")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(status = 403, code = "forbidden", message = "this needs an approver key")
  @Refusal(status = 404, code = "not_found", message = "no such policy version")
  @Refusal(
      status = 403,
      code = "same_person",
      message = "the version must be promoted by someone other than its submitter")
  @Refusal(status = 409, code = "not_in_rollout", message = "2026-12-01 is VALIDATED")
  @Refusal(
      status = 409,
      code = "concurrent_change",
      message = "the rollout changed meanwhile; read it again")
  @PostMapping("/{version}/promote")
  public RolloutState promote(@PathVariable("version") String version, HttpServletRequest request)
      throws PolicyRejected {
    Principal approver = principal(request, Role.APPROVER);
    PolicyRegistry r = registry();
    PolicyRecord rec =
        r.record(version)
            .orElseThrow(() -> new PolicyRejected("not_found", "no such policy version"));
    if (PersonNames.same(approver.id(), rec.createdBy())) {
      throw new ApiException(
          HttpStatus.FORBIDDEN,
          "same_person",
          "the version must be promoted by someone other than its submitter");
    }
    RolloutState state = r.promote(version, approver.id());
    log.info("recovery policy {} promoted by {}", version, approver.id());
    return state;
  }

  @Operation(
      summary =
          "Roll back (approver): the version in rollout, else the ACTIVE one to its last known"
              + " good")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(status = 403, code = "forbidden", message = "this needs an approver key")
  @Refusal(
      status = 409,
      code = "not_live",
      message = "only the version in rollout, else the ACTIVE one, can be rolled back")
  @Refusal(
      status = 409,
      code = "no_last_known_good",
      message = "no earlier version to roll back to")
  @Refusal(status = 422, code = "reason_required", message = "say why")
  @Refusal(status = 422, code = "reason_too_long", message = "reason is longer than 500")
  @PostMapping(path = "/{version}/rollback", consumes = MediaType.APPLICATION_JSON_VALUE)
  public RolloutState rollback(
      @PathVariable("version") String version,
      @RequestBody(required = false) ReasonRequest body,
      HttpServletRequest request)
      throws PolicyRejected {
    Principal approver = principal(request, Role.APPROVER);
    PolicyRegistry r = registry();
    PolicyInputs.requireLive(r, version);
    RolloutState state = r.rollback(approver.id(), PolicyInputs.reason(body));
    log.info("recovery policy {} rolled back by {}", version, approver.id());
    return state;
  }

  @Operation(summary = "Pause the rollout of a version: 0 percent, tasks keep their pin (operator)")
  @Refusal(
      status = 404,
      code = "channels_disabled",
      message = "recovery policies need the channel layer (serve --channels)")
  @Refusal(status = 403, code = "forbidden", message = "this needs an operator key")
  @Refusal(status = 409, code = "no_rollout", message = "that version is not rolling out")
  @Refusal(status = 422, code = "reason_required", message = "say why")
  @Refusal(status = 422, code = "reason_too_long", message = "reason is longer than 500")
  @PostMapping(path = "/{version}/pause", consumes = MediaType.APPLICATION_JSON_VALUE)
  public RolloutState pause(
      @PathVariable("version") String version,
      @RequestBody(required = false) ReasonRequest body,
      HttpServletRequest request)
      throws PolicyRejected {
    Principal operator = principal(request, Role.OPERATOR);
    PolicyRegistry r = registry();
    RolloutState before = r.current();
    if (!version.equals(before.candidateVersion())) {
      throw new PolicyRejected("no_rollout", "that version is not rolling out");
    }
    RolloutState state = r.pause(operator.id(), PolicyInputs.reason(body));
    log.info("recovery policy {} rollout paused by {}", version, operator.id());
    return state;
  }

  @ExceptionHandler(PolicyRejected.class)
  ResponseEntity<PolicyRefusal> refused(PolicyRejected e) {
    return ResponseEntity.status(PolicyRefusal.statusOf(e.code())).body(PolicyRefusal.of(e));
  }

  @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
  ResponseEntity<PolicyRefusal> mediaType(HttpMediaTypeNotSupportedException e) {
    return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
        .body(
            new PolicyRefusal(
                "unsupported_media_type",
                "send a policy as text/plain or application/yaml, commands as application/json",
                List.of()));
  }

  private PolicyRegistry registry() {
    PolicyRegistry r = registry.getIfAvailable();
    if (r == null) {
      throw new ApiException(
          HttpStatus.NOT_FOUND,
          "channels_disabled",
          "recovery policies need the channel layer (serve --channels)");
    }
    return r;
  }

  private static Principal principal(HttpServletRequest request, Role needed) {
    Principal p = (Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL);
    if (p == null || p.role() != needed) {
      throw new ApiException(
          HttpStatus.FORBIDDEN,
          "forbidden",
          "this needs an " + needed.name().toLowerCase() + " key");
    }
    return p;
  }
}
