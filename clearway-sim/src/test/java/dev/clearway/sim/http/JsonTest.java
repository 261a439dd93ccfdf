package dev.clearway.sim.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {

  @Test
  void writesAndParsesAFlatObject() {
    Map<String, Object> in = new LinkedHashMap<>();
    in.put("status", "SUCCEEDED");
    in.put("errorCode", null);
    in.put("amount", 1999L);
    in.put("retryable", true);
    in.put("note", "quote \" backslash \\ newline \n tab \t unicode \u00e9 \u0001");

    String text = Json.write(in);

    assertThat(text).startsWith("{\"status\":\"SUCCEEDED\",\"errorCode\":null,\"amount\":1999,");
    assertThat(Json.parse(text)).containsExactlyEntriesOf(in);
  }

  @Test
  void parsesWhitespaceEscapesAndNumbers() {
    Map<String, Object> out =
        Json.parse(
            " {\n \"a\" : \"\\u0041\\/\" , \"b\": -12, \"c\": 1.5e2, \"d\": false, \"e\": null,"
                + " \"f\": 123456789012345678901234567890 }\t");

    assertThat(out.get("a")).isEqualTo("A/");
    assertThat(out.get("b")).isEqualTo(-12L);
    assertThat(out.get("c")).isEqualTo(new BigDecimal("1.5e2"));
    assertThat(out.get("d")).isEqualTo(false);
    assertThat(out).containsEntry("e", null);
    assertThat(out.get("f")).isEqualTo(new BigDecimal("123456789012345678901234567890"));
    assertThat(Json.parse("{}")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "[]",
        "null",
        "{",
        "{\"a\"}",
        "{\"a\":}",
        "{\"a\":1,}",
        "{\"a\":1 \"b\":2}",
        "{\"a\":{\"b\":1}}",
        "{\"a\":[1]}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":1} x",
        "{\"a\":01}",
        "{\"a\":1.}",
        "{\"a\":-}",
        "{\"a\":tru}",
        "{\"a\":\"\\x\"}",
        "{\"a\":\"\\u12\"}",
        "{\"a\":\"unterminated}",
        "{\"a\":\"raw\nnewline\"}",
        "{a:1}",
        "<html><body>502 Bad Gateway</body></html>"
      })
  void rejectsAnythingOutsideTheFlatSubset(String text) {
    assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(Json.MalformedJsonException.class);
  }

  @Test
  void errorMessageDoesNotQuoteTheInput() {
    assertThatThrownBy(() -> Json.parse("{\"secret\": nope}"))
        .hasMessageNotContaining("secret")
        .hasMessageContaining("offset");
  }

  @Test
  void refusesToWriteUnsupportedValues() {
    assertThatThrownBy(() -> Json.write(Map.of("a", new Object())))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
