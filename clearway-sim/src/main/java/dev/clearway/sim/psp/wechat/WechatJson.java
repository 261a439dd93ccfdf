package dev.clearway.sim.psp.wechat;

import dev.clearway.sim.http.JsonWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses nested JSON (objects, arrays, strings, integers, decimals, booleans, null) for the WeChat
 * Pay v3 wire format without a third-party dependency in the simulator. Objects parse as
 * insertion-ordered maps, integers as {@link Long}. Malformed input throws {@link
 * IllegalArgumentException} whose message never quotes the input. Output goes through {@link
 * JsonWriter#WECHAT}.
 */
final class WechatJson {
  private WechatJson() {}

  /** Parses one JSON object. */
  static Map<String, Object> parseObject(String text) {
    Parser p = new Parser(text == null ? "" : text);
    p.space();
    Object v = p.value(0);
    p.space();
    if (p.i != p.s.length()) {
      throw p.error("trailing content");
    }
    if (!(v instanceof Map<?, ?>)) {
      throw p.error("expected an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) v;
    return map;
  }

  private static final class Parser {
    private static final int MAX_DEPTH = 32;
    private final String s;
    private int i;

    Parser(String s) {
      this.s = s;
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) {
        throw error("nested too deeply");
      }
      char c = peek();
      return switch (c) {
        case '{' -> object(depth);
        case '[' -> array(depth);
        case '"' -> string();
        case 't' -> literal("true", Boolean.TRUE);
        case 'f' -> literal("false", Boolean.FALSE);
        case 'n' -> literal("null", null);
        default -> {
          if (c == '-' || (c >= '0' && c <= '9')) {
            yield number();
          }
          throw error("unexpected character");
        }
      };
    }

    private Map<String, Object> object(int depth) {
      expect('{');
      Map<String, Object> out = new LinkedHashMap<>();
      space();
      if (peek() == '}') {
        i++;
        return Collections.unmodifiableMap(out);
      }
      while (true) {
        space();
        if (peek() != '"') {
          throw error("expected a key");
        }
        String key = string();
        space();
        expect(':');
        space();
        Object v = value(depth + 1);
        if (out.containsKey(key)) {
          throw error("duplicate key");
        }
        out.put(key, v);
        space();
        char c = next();
        if (c == '}') {
          return Collections.unmodifiableMap(out);
        }
        if (c != ',') {
          throw error("expected ',' or '}'");
        }
      }
    }

    private List<Object> array(int depth) {
      expect('[');
      List<Object> out = new ArrayList<>();
      space();
      if (peek() == ']') {
        i++;
        return Collections.unmodifiableList(out);
      }
      while (true) {
        space();
        out.add(value(depth + 1));
        space();
        char c = next();
        if (c == ']') {
          return Collections.unmodifiableList(out);
        }
        if (c != ',') {
          throw error("expected ',' or ']'");
        }
      }
    }

    private Object number() {
      int start = i;
      if (peek() == '-') {
        i++;
      }
      boolean integral = true;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c >= '0' && c <= '9') {
          i++;
        } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
          integral = false;
          i++;
        } else {
          break;
        }
      }
      String text = s.substring(start, i);
      try {
        if (integral) {
          return Long.parseLong(text);
        }
        return new BigDecimal(text);
      } catch (NumberFormatException e) {
        throw error("bad number");
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
            case 'u' -> {
              if (i + 4 > s.length()) {
                throw error("bad unicode escape");
              }
              try {
                out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
              } catch (NumberFormatException ex) {
                throw error("bad unicode escape");
              }
              i += 4;
            }
            default -> throw error("bad escape");
          }
        } else if (c < 0x20) {
          throw error("control character in string");
        } else {
          out.append(c);
        }
      }
    }

    private Object literal(String word, Object value) {
      if (!s.startsWith(word, i)) {
        throw error("unexpected literal");
      }
      i += word.length();
      return value;
    }

    void space() {
      while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
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

    IllegalArgumentException error(String message) {
      return new IllegalArgumentException("malformed JSON: " + message + " at offset " + i);
    }
  }
}
