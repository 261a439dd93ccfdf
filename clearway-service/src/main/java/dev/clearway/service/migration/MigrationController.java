package dev.clearway.service.migration;

import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeyFilter;
import dev.clearway.service.api.ApiKeys;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /ops/migration}: read, roll back and resume the migrated path's new-payment intake, for
 * every node. Operator and approver keys; audited with who, when and why.
 */
@RestController
public class MigrationController {
  private static final int MAX_REASON = 500;

  private final MigrationSwitch migration;

  public MigrationController(MigrationSwitch migration) {
    this.migration = migration;
  }

  @Operation(
      summary = "Whether the gray migration is rolled back, with who changed it last, when, why",
      description = "Read from the database: the same answer on every node.")
  @GetMapping(path = "/ops/migration", produces = MediaType.APPLICATION_JSON_VALUE)
  public MigrationSwitch.State state() {
    return migration.read();
  }

  @Operation(
      summary = "Roll the gray migration back, or resume it, on every node",
      description =
          "{\"rolledBack\": true, \"reason\": \"...\"}: within about a second every node answers"
              + " a payment of a goal Clearway has never seen with 409 legacy_route;"
              + " goals Clearway has seen are still paid, answered, queried, cancelled and converged by"
              + " the workers. {\"rolledBack\": false, \"reason\": \"...\"} resumes routing by the"
              + " rollout. Audited (who, when, reason).")
  @PostMapping(
      path = "/ops/migration",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  public MigrationSwitch.State change(
      @RequestBody(required = false) MigrationRequest body, HttpServletRequest request) {
    if (body == null || body.rolledBack() == null) {
      throw ApiException.badRequest("invalid_parameter", "rolledBack (true or false) is required");
    }
    String reason = body.reason() == null ? "" : body.reason().strip();
    if (reason.isEmpty() || reason.length() > MAX_REASON) {
      throw ApiException.badRequest(
          "invalid_parameter", "a reason of at most " + MAX_REASON + " characters is required");
    }
    ApiKeys.Principal who = (ApiKeys.Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL);
    if (who == null) {
      throw new ApiException(HttpStatus.UNAUTHORIZED, "unauthorized", "a valid key is required");
    }
    return migration.set(body.rolledBack(), reason, who.id());
  }
}
