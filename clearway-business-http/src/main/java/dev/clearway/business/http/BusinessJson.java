package dev.clearway.business.http;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The contract's bodies: flat JSON objects, read and written with Jackson. Reading is strict: a
 * duplicated field, content after the object, a nested value or anything that is not one object
 * makes the body unreadable (null), so that such an answer is UNKNOWN, never a definite result.
 */
final class BusinessJson {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private BusinessJson() {}

  static byte[] write(Map<String, ?> object) {
    return MAPPER.writeValueAsBytes(object);
  }

  /** One flat object with strings as {@link String}, other scalars as text; null otherwise. */
  static Map<String, String> readFlatObject(byte[] body) {
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
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      JsonNode value = field.getValue();
      if (value.isContainer()) {
        return null;
      }
      out.put(field.getKey(), value.isString() ? value.stringValue() : null);
    }
    return Collections.unmodifiableMap(out);
  }
}
