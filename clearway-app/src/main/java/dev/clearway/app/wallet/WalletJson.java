package dev.clearway.app.wallet;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wallet protocol's JSON: flat objects (string, integer, decimal, boolean and null values),
 * written and read by Jackson. Reading is strict like the API's: a duplicated field, a nested
 * value, content after the object or anything but one object is refused; a number is never coerced
 * from a string, a fraction never into an integer (integers read as {@link Long}, other numbers
 * exactly as {@link java.math.BigDecimal}).
 */
final class WalletJson {
  private static final JsonMapper JSON =
      JsonMapper.builder()
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .build();

  private WalletJson() {}

  /** The body of a request: the fields in their map's order. */
  static String write(Map<String, ?> fields) {
    return JSON.writeValueAsString(fields);
  }

  /** One flat object, its fields in their order; null for anything else. */
  static Map<String, Object> readFlat(String text) {
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JacksonException e) {
      return null;
    }
    if (!(node instanceof ObjectNode object)) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      JsonNode value = field.getValue();
      if (value.isContainer()) {
        return null;
      }
      out.put(field.getKey(), scalar(value));
    }
    return Collections.unmodifiableMap(out);
  }

  private static Object scalar(JsonNode value) {
    if (value.isString()) {
      return value.stringValue();
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    if (value.isNumber()) {
      return value.decimalValue();
    }
    return null;
  }
}
