package dev.clearway.sim.psp.stripe;

import dev.clearway.sim.json.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One answer of the simulated Stripe API.
 *
 * @param executed whether the endpoint started executing: only then is the answer stored for the
 *     request's {@code Idempotency-Key} (Stripe does not store validation errors)
 */
record SimResponse(int status, String body, boolean executed) {

  static SimResponse ok(Map<String, Object> object) {
    return new SimResponse(200, json(object), true);
  }

  /** An error answered before anything executed: not stored for the key. */
  static SimResponse refused(int status, String type, String code) {
    return new SimResponse(status, json(error(type, code, null)), false);
  }

  /** An error that is the stored result of an execution. */
  static SimResponse failed(int status, String type, String code, Map<String, Object> intent) {
    return new SimResponse(status, json(error(type, code, intent)), true);
  }

  /**
   * 503 {@code channel_unavailable}: not accepted, nothing executed; stored for the key when the
   * simulated lie executed all the same.
   */
  static SimResponse unavailable(boolean stored) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("type", "api_error");
    error.put("code", "channel_unavailable");
    error.put("message", "simulated channel_unavailable: not accepted, nothing executed");
    return new SimResponse(503, json(Map.of("error", error)), stored);
  }

  private static Map<String, Object> error(String type, String code, Map<String, Object> intent) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("type", type);
    if (code != null) {
      error.put("code", code);
    }
    error.put("message", "simulated " + (code != null ? code : type));
    if (intent != null) {
      error.put("payment_intent", intent);
    }
    return Map.of("error", error);
  }

  private static String json(Map<String, Object> object) {
    return new String(StrictJson.write(object), StandardCharsets.UTF_8);
  }
}
