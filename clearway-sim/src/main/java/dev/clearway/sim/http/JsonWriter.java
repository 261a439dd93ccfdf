package dev.clearway.sim.http;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Writes JSON for the simulators: maps (in their iteration order, keys via {@link String#valueOf}),
 * lists, strings, integers, decimals, booleans and null.
 *
 * <p>Each wire format has its own fixed dialect, kept byte-for-byte because signatures are computed
 * over the bodies: which control characters get a short escape, whether U+2028/U+2029 are escaped,
 * whether decimals and nesting are allowed. Use the constant for the format.
 */
public final class JsonWriter {

  /**
   * The simulated wallet ({@link Json}): flat objects only; {@code \b} and {@code \f} as short
   * escapes; U+2028/U+2029 escaped; decimals allowed.
   */
  public static final JsonWriter WALLET = new JsonWriter(false, true, true, true, 64);

  /**
   * The simulated Stripe API: nested; {@code \b} and {@code \f} as {@code \}{@code u} escapes;
   * U+2028/U+2029 escaped; no decimals.
   */
  public static final JsonWriter STRIPE = new JsonWriter(true, false, true, false, 256);

  /**
   * The simulated WeChat Pay v3 API: nested; {@code \b} and {@code \f} as {@code \}{@code u}
   * escapes; U+2028/U+2029 written as is; decimals allowed.
   */
  public static final JsonWriter WECHAT = new JsonWriter(true, false, false, true, 128);

  private final boolean nested;
  private final boolean shortBackspaceAndFormFeed;
  private final boolean escapeLineSeparators;
  private final boolean decimals;
  private final int capacity;

  private JsonWriter(
      boolean nested,
      boolean shortBackspaceAndFormFeed,
      boolean escapeLineSeparators,
      boolean decimals,
      int capacity) {
    this.nested = nested;
    this.shortBackspaceAndFormFeed = shortBackspaceAndFormFeed;
    this.escapeLineSeparators = escapeLineSeparators;
    this.decimals = decimals;
    this.capacity = capacity;
  }

  /**
   * Writes one value. A non-nesting writer accepts maps and lists only at the top level.
   *
   * @throws IllegalArgumentException for a value type outside this writer's dialect
   */
  public String write(Object value) {
    StringBuilder out = new StringBuilder(capacity);
    append(out, value, true);
    return out.toString();
  }

  private void append(StringBuilder out, Object value, boolean top) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      quote(out, s);
    } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
      out.append(value);
    } else if (decimals && value instanceof BigDecimal d) {
      out.append(d.toPlainString());
    } else if ((nested || top) && value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        quote(out, String.valueOf(e.getKey()));
        out.append(':');
        append(out, e.getValue(), false);
      }
      out.append('}');
    } else if ((nested || top) && value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        append(out, list.get(i), false);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("unsupported JSON value type " + value.getClass());
    }
  }

  private void quote(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (shortBackspaceAndFormFeed && c == '\b') {
            out.append("\\b");
          } else if (shortBackspaceAndFormFeed && c == '\f') {
            out.append("\\f");
          } else if (c < 0x20 || (escapeLineSeparators && (c == '\u2028' || c == '\u2029'))) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
