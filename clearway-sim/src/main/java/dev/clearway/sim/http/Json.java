package dev.clearway.sim.http;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tiny codec for flat JSON objects: string, integer, decimal, boolean and null values, no
 * nesting. Enough for the simulated wallet's wire protocol without a third-party dependency.
 * Integers parse as {@link Long}, other numbers as {@link BigDecimal}. Duplicate keys, nesting,
 * trailing content and anything else outside that subset are rejected with {@link
 * MalformedJsonException}.
 */
public final class Json {
  private Json() {}

  /** Thrown for any input outside the flat-object subset. The message never quotes the input. */
  public static final class MalformedJsonException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    MalformedJsonException(String message, int position) {
      super(message + " at offset " + position);
    }
  }

  /**
   * Writes a flat object; values must be null, String, Long, Integer, BigDecimal or Boolean. Keys
   * keep their order. See {@link JsonWriter#WALLET}.
   */
  public static String write(Map<String, ?> object) {
    return JsonWriter.WALLET.write(object);
  }

  /** Parses one flat object. */
  public static Map<String, Object> parse(String text) {
    if (text == null) {
      throw new MalformedJsonException("no content", 0);
    }
    return new Parser(text).object();
  }

  private static final class Parser {
    private final String s;
    private int i;

    Parser(String s) {
      this.s = s;
    }

    Map<String, Object> object() {
      skipSpace();
      expect('{');
      Map<String, Object> out = new LinkedHashMap<>();
      skipSpace();
      if (peek() == '}') {
        i++;
      } else {
        while (true) {
          skipSpace();
          if (peek() != '"') {
            throw error("expected a key");
          }
          String key = string();
          skipSpace();
          expect(':');
          skipSpace();
          Object value = value();
          if (out.containsKey(key)) {
            throw error("duplicate key");
          }
          out.put(key, value);
          skipSpace();
          char c = next();
          if (c == '}') {
            break;
          }
          if (c != ',') {
            throw error("expected ',' or '}'");
          }
        }
      }
      skipSpace();
      if (i != s.length()) {
        throw error("trailing content");
      }
      return Collections.unmodifiableMap(out);
    }

    private Object value() {
      char c = peek();
      switch (c) {
        case '"':
          return string();
        case 't':
          literal("true");
          return Boolean.TRUE;
        case 'f':
          literal("false");
          return Boolean.FALSE;
        case 'n':
          literal("null");
          return null;
        case '{':
        case '[':
          throw error("nested values are not supported");
        default:
          if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
          }
          throw error("unexpected character");
      }
    }

    private Object number() {
      int start = i;
      if (peek() == '-') {
        i++;
      }
      if (peek() == '0') {
        i++;
      } else if (peek() >= '1' && peek() <= '9') {
        digits();
      } else {
        throw error("bad number");
      }
      boolean integral = true;
      if (peek() == '.') {
        integral = false;
        i++;
        if (!(peek() >= '0' && peek() <= '9')) {
          throw error("bad number");
        }
        digits();
      }
      if (peek() == 'e' || peek() == 'E') {
        integral = false;
        i++;
        if (peek() == '+' || peek() == '-') {
          i++;
        }
        if (!(peek() >= '0' && peek() <= '9')) {
          throw error("bad number");
        }
        digits();
      }
      String text = s.substring(start, i);
      if (integral) {
        try {
          return Long.parseLong(text);
        } catch (NumberFormatException e) {
          return new BigDecimal(text);
        }
      }
      return new BigDecimal(text);
    }

    private void digits() {
      while (peek() >= '0' && peek() <= '9') {
        i++;
      }
    }

    private String string() {
      expect('"');
      StringBuilder out = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') {
          return out.toString();
        }
        if (c == '\\') {
          char e = next();
          switch (e) {
            case '"' -> out.append('"');
            case '\\' -> out.append('\\');
            case '/' -> out.append('/');
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'n' -> out.append('\n');
            case 'r' -> out.append('\r');
            case 't' -> out.append('\t');
            case 'u' -> out.append(unicode());
            default -> throw error("bad escape");
          }
        } else if (c < 0x20) {
          throw error("control character in string");
        } else {
          out.append(c);
        }
      }
    }

    private char unicode() {
      if (i + 4 > s.length()) {
        throw error("bad unicode escape");
      }
      int v = 0;
      for (int k = 0; k < 4; k++) {
        char h = s.charAt(i++);
        int d =
            h >= '0' && h <= '9'
                ? h - '0'
                : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
        if (d < 0) {
          throw error("bad unicode escape");
        }
        v = v * 16 + d;
      }
      return (char) v;
    }

    private void literal(String word) {
      if (!s.startsWith(word, i)) {
        throw error("unexpected literal");
      }
      i += word.length();
    }

    private void skipSpace() {
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
          return;
        }
        i++;
      }
    }

    private char peek() {
      return i < s.length() ? s.charAt(i) : '\0';
    }

    private char next() {
      if (i >= s.length()) {
        throw error("unexpected end");
      }
      return s.charAt(i++);
    }

    private void expect(char c) {
      if (next() != c) {
        throw error("expected '" + c + "'");
      }
    }

    private MalformedJsonException error(String message) {
      return new MalformedJsonException(message, i);
    }
  }
}
