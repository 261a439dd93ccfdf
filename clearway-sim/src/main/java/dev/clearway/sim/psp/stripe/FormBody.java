package dev.clearway.sim.psp.stripe;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A decoded {@code application/x-www-form-urlencoded} body or query string, as Stripe takes its
 * parameters ({@code metadata[attempt_key]=...} stays one flat name). Sorted by name, so that two
 * requests with the same parameters have the same {@link #fingerprint()}.
 */
record FormBody(Map<String, String> params) {

  static FormBody parse(String encoded) {
    Map<String, String> params = new TreeMap<>();
    if (encoded != null && !encoded.isEmpty()) {
      for (String pair : encoded.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        params.put(decode(name), decode(value));
      }
    }
    return new FormBody(Collections.unmodifiableMap(params));
  }

  String get(String name) {
    return params.get(name);
  }

  /** The parameters in canonical order; equal for equal parameter sets. */
  String fingerprint() {
    return params.toString();
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
