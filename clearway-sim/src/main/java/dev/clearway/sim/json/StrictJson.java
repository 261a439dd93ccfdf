package dev.clearway.sim.json;

import java.util.OptionalLong;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulators' JSON, read and written with one Jackson mapper.
 *
 * <p>Reading is strict: a duplicated field, content after the value, nesting deeper than {@value
 * #MAX_DEPTH} levels or bytes that are not UTF-8 make the body malformed; a decimal is read exactly
 * (never through a double). An amount is only ever an integral JSON number ({@link #integer}): a
 * string, a fraction or an exponent is never converted into one. Each simulator decides which error
 * of its protocol a malformed body or a wrong field answers, and which unknown fields it ignores.
 *
 * <p>Signatures are computed over the bytes sent or received, never over a re-serialisation, so the
 * writer's spacing, escapes and field order are not part of any protocol.
 */
public final class StrictJson {
  /** The deepest nesting a body may have. */
  public static final int MAX_DEPTH = 32;

  private static final JsonMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                  .build())
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .build();

  private StrictJson() {}

  /** A body that is not one well-formed JSON object. The message never quotes the input. */
  public static final class MalformedJsonException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedJsonException(String message) {
      super(message, null, false, false);
    }
  }

  /** Reads the bytes received as one JSON object. */
  public static ObjectNode readObject(byte[] raw) throws MalformedJsonException {
    if (raw == null || raw.length == 0) {
      throw new MalformedJsonException("not a JSON object: no content");
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(raw);
    } catch (JacksonException e) {
      throw new MalformedJsonException("malformed JSON at offset " + offset(e.getLocation()));
    }
    if (!(node instanceof ObjectNode object)) {
      throw new MalformedJsonException("not a JSON object");
    }
    return object;
  }

  /**
   * The bytes to send for {@code value}: maps in their iteration order, lists, strings, numbers,
   * booleans and null, in UTF-8.
   *
   * @throws IllegalArgumentException for a value Jackson cannot write (an object without properties
   *     is refused, not written as {@code {}})
   */
  public static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("cannot write as JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The value of an integral JSON number that fits a long; empty for anything else (absent, null, a
   * string such as {@code "100"}, a fraction such as {@code 100.0}, an exponent such as {@code
   * 1e2}, a number beyond a long).
   */
  public static OptionalLong integer(JsonNode node) {
    if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(node.longValue());
  }

  /** The value of a JSON string; null for anything else (absent, null, a number, an object). */
  public static String text(JsonNode node) {
    return node != null && node.isString() ? node.stringValue() : null;
  }

  private static long offset(TokenStreamLocation location) {
    if (location == null) {
      return -1;
    }
    return location.getByteOffset() >= 0 ? location.getByteOffset() : location.getCharOffset();
  }
}
