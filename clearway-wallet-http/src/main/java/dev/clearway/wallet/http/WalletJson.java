package dev.clearway.wallet.http;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wallet protocol's bodies: flat JSON objects of strings, integers, decimals, booleans and
 * nulls, read and written with Jackson. Reading is strict: a duplicated field, content after the
 * object, a nested value or anything that is not one object makes the body unreadable (null), so
 * that such an answer is classified UNKNOWN and never read as a definite result.
 */
final class WalletJson {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .build();

  private WalletJson() {}

  /** The body of a request: the fields in their iteration order. */
  static String write(Map<String, ?> object) {
    return MAPPER.writeValueAsString(object);
  }

  /** One flat object with integers as {@link Long}, other numbers as decimals; null otherwise. */
  static Map<String, Object> readFlatObject(byte[] body) {
    if (body == null || body.length == 0) {
      return null;
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(body);
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
    if (value.isNull()) {
      return null;
    }
    if (value.isString()) {
      return value.stringValue();
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    return value.isNumber() ? value.decimalValue() : value.asString();
  }
}
