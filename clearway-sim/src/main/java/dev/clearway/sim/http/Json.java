package dev.clearway.sim.http;

import dev.clearway.sim.json.StrictJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Flat JSON objects of the wallet's wire protocol (string, integer, decimal, boolean and null
 * values, no nesting) for clients outside the simulator, read and written by {@link StrictJson}.
 * Integers parse as {@link Long}, other numbers as {@link BigDecimal}; duplicate keys, nesting,
 * trailing content and anything else outside that subset are rejected with {@link
 * MalformedJsonException}.
 *
 * @deprecated the simulator reads and writes its JSON with {@link StrictJson}; clients of the
 *     wallet's protocol keep their own protocol code. This adapter goes once no client uses it.
 */
@Deprecated(forRemoval = true)
public final class Json {
  private Json() {}

  /** Thrown for any input outside the flat-object subset. The message never quotes the input. */
  public static final class MalformedJsonException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    MalformedJsonException(String message) {
      super(message);
    }
  }

  /**
   * Writes a flat object; values must be null, String, Long, Integer, BigDecimal or Boolean. Keys
   * keep their order.
   *
   * @throws IllegalArgumentException for any other value
   */
  public static String write(Map<String, ?> object) {
    for (Object value : object.values()) {
      if (!(value == null
          || value instanceof String
          || value instanceof Long
          || value instanceof Integer
          || value instanceof BigDecimal
          || value instanceof Boolean)) {
        throw new IllegalArgumentException("unsupported JSON value type " + value.getClass());
      }
    }
    return new String(StrictJson.write(object), StandardCharsets.UTF_8);
  }

  /** Parses one flat object. */
  public static Map<String, Object> parse(String text) {
    ObjectNode object;
    try {
      object = StrictJson.readObject(text == null ? null : text.getBytes(StandardCharsets.UTF_8));
    } catch (StrictJson.MalformedJsonException e) {
      throw new MalformedJsonException(e.getMessage());
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      out.put(field.getKey(), scalar(field.getValue()));
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
    if (value.isNumber()) {
      return value.decimalValue();
    }
    throw new MalformedJsonException("nested values are not supported");
  }
}
