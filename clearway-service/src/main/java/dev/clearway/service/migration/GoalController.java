package dev.clearway.service.migration;

import dev.clearway.service.api.ApiException;
import dev.clearway.service.api.ApiKeyFilter;
import dev.clearway.service.api.ApiKeys;
import dev.clearway.service.api.FlowView;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** HTTP face of {@link GoalApi}: a goal's query and cancel under the routing decision. */
@RestController
@RequestMapping(path = "/v1/goals", produces = MediaType.APPLICATION_JSON_VALUE)
public class GoalController {
  private final GoalApi goals;

  public GoalController(GoalApi goals) {
    this.goals = goals;
  }

  @Operation(
      summary = "The goal's newest payment, wherever the routing sends it",
      description =
          "200 with the newest Clearway attempt; 409 legacy_in_flight (legacyReference) or 409"
              + " legacy_route when the goal lives on the legacy payment path; 503 legacy_unknown"
              + " when that cannot be read now; 404 flow_not_found when neither path has it.")
  @GetMapping
  public FlowView find(
      @RequestParam(name = "userId", required = false) Long userId,
      @RequestParam(name = "scene", required = false) String scene,
      @RequestParam(name = "bizKey", required = false) String bizKey,
      HttpServletRequest request) {
    return goals.find(merchant(request), userId, scene, bizKey);
  }

  @Operation(
      summary = "Cancel the goal's payment, wherever the routing sends it",
      description =
          "Cancels the live Clearway attempt as POST /v1/payment-flows/{id}/cancel does; a goal"
              + " on the legacy path answers the same hand-back as its payment.")
  @PostMapping(path = "/cancel", consumes = MediaType.APPLICATION_JSON_VALUE)
  public FlowView cancel(
      @RequestBody(required = false) GoalRequest body, HttpServletRequest request) {
    if (body == null) {
      throw ApiException.badRequest("missing_body", "a JSON body is required");
    }
    return goals.cancel(merchant(request), body.userId(), body.scene(), body.bizKey());
  }

  private static String merchant(HttpServletRequest request) {
    return ((ApiKeys.Principal) request.getAttribute(ApiKeyFilter.PRINCIPAL)).id();
  }
}
