package dev.clearway.sim.psp.stripe;

import dev.clearway.sim.http.JsonWriter;
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
    return new SimResponse(200, JsonWriter.STRIPE.write(object), true);
  }

  /** An error answered before anything executed: not stored for the key. */
  static SimResponse refused(int status, String type, String code) {
    return new SimResponse(status, JsonWriter.STRIPE.write(error(type, code, null)), false);
  }

  /** An error that is the stored result of an execution. */
  static SimResponse failed(int status, String type, String code, Map<String, Object> intent) {
    return new SimResponse(status, JsonWriter.STRIPE.write(error(type, code, intent)), true);
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
}
