package dev.clearway.app.latecharge;

import dev.clearway.store.latecharge.JdbcLateChargeOps;
import io.swagger.v3.oas.annotations.Operation;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /ops/late-charges}: late-charge checks by status and the ones a person must look at
 * (MANUAL: the wallet never answered definitely within the retry budget; they are still re-checked
 * at the escalated interval). Operator and approver keys only (ApiKeyFilter guards {@code /ops/}).
 */
@RestController
public class LateChargeOpsController {
  private static final int LIMIT = 200;

  private final JdbcLateChargeOps ops;

  public LateChargeOpsController(JdbcLateChargeOps ops) {
    this.ops = ops;
  }

  @Operation(summary = "Late-charge checks by status, and the oldest ones in manual review")
  @GetMapping(path = "/ops/late-charges", produces = MediaType.APPLICATION_JSON_VALUE)
  public Map<String, Object> lateCharges() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("byStatus", ops.countByStatus());
    out.put("manual", ops.manual(LIMIT));
    return out;
  }
}
