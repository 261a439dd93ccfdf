package dev.clearway.service.latecharge;

import dev.clearway.service.api.Page;
import dev.clearway.service.api.PageCursor;
import dev.clearway.store.latecharge.JdbcLateChargeOps;
import io.swagger.v3.oas.annotations.Operation;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /ops/late-charges}: late-charge checks by status and a page of the ones a person must
 * look at (MANUAL: the wallet never answered definitely within the retry budget; they are still
 * re-checked at the escalated interval), every merchant's, each naming its merchant. Operator and
 * approver keys only (ApiKeyFilter guards {@code /ops/}).
 */
@RestController
public class LateChargeOpsController {
  private final JdbcLateChargeOps ops;

  public LateChargeOpsController(JdbcLateChargeOps ops) {
    this.ops = ops;
  }

  /** Checks by status and a page of the MANUAL ones. */
  public record LateChargesView(
      Map<String, Long> byStatus, Page<JdbcLateChargeOps.ManualCheck> manual) {}

  @Operation(
      summary =
          "Late-charge checks by status, and a page of those in manual review (newest first, with"
              + " their merchant; cursor and limit page them)")
  @GetMapping(path = "/ops/late-charges", produces = MediaType.APPLICATION_JSON_VALUE)
  public LateChargesView lateCharges(
      @RequestParam(name = "cursor", required = false) String cursor,
      @RequestParam(name = "limit", required = false) Integer limit) {
    int size = PageCursor.size(limit);
    long before = PageCursor.before(cursor);
    return new LateChargesView(
        ops.countByStatus(),
        Page.byId(ops.manual(before, size + 1), size, JdbcLateChargeOps.ManualCheck::checkId));
  }
}
