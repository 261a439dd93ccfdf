package dev.clearway.lab.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON line a bench prints with {@code --json}, written by Jackson. */
final class BenchJson {
  private static final JsonMapper JSON =
      JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

  private BenchJson() {}

  /** The fields in their map's order, as one line without a line break. */
  static String line(Map<String, ?> fields) {
    return JSON.writeValueAsString(fields);
  }

  /**
   * A figure with a fixed number of decimals (half up, like {@code %.Nf}); a value that is not
   * finite stays a double.
   */
  static Object fixed(double value, int decimals) {
    return Double.isFinite(value)
        ? BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP)
        : (Object) value;
  }
}
