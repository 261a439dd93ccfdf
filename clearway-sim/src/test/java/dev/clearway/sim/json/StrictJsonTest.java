package dev.clearway.sim.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

class StrictJsonTest {

  @Test
  void writesMapsInTheirOrderAndReadsThemBack() throws Exception {
    Map<String, Object> in = new LinkedHashMap<>();
    in.put("z", "quote \" backslash \\ newline \n 支付成功 \u2028");
    in.put("a", null);
    in.put("m", 1999L);
    in.put("nested", Map.of("list", List.of(1L, true)));

    byte[] out = StrictJson.write(in);

    assertThat(new String(out, StandardCharsets.UTF_8)).startsWith("{\"z\":");
    ObjectNode back = StrictJson.readObject(out);
    assertThat(back.propertyNames()).containsExactly("z", "a", "m", "nested");
    assertThat(StrictJson.text(back.get("z"))).isEqualTo(in.get("z"));
    assertThat(back.get("a").isNull()).isTrue();
    assertThat(StrictJson.integer(back.get("m"))).hasValue(1999L);
    assertThat(back.get("nested").get("list").get(1).booleanValue()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "[]",
        "null",
        "\"text\"",
        "{",
        "{\"a\"}",
        "{\"a\":}",
        "{\"a\":1,}",
        "{\"a\":1 \"b\":2}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":{\"b\":1,\"b\":1}}",
        "{\"a\":1} x",
        "{\"a\":1}{}",
        "{\"a\":01}",
        "{\"a\":1.}",
        "{\"a\":-}",
        "{\"a\":tru}",
        "{\"a\":\"\\x\"}",
        "{\"a\":\"\\u12\"}",
        "{\"a\":\"unterminated}",
        "{\"a\":\"raw\nnewline\"}",
        "{a:1}",
        "{'a':1}",
        "<html><body>502 Bad Gateway</body></html>"
      })
  void refusesAnythingButOneWellFormedObject(String text) {
    assertThatThrownBy(() -> StrictJson.readObject(text.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(StrictJson.MalformedJsonException.class);
  }

  @Test
  void refusesBytesThatAreNotUtf8AndNestingBeyondTheLimit() {
    byte[] latin1 = "{\"a\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
    String deep =
        "{\"a\":".repeat(StrictJson.MAX_DEPTH + 1) + "1" + "}".repeat(StrictJson.MAX_DEPTH + 1);

    assertThatThrownBy(() -> StrictJson.readObject(latin1))
        .isInstanceOf(StrictJson.MalformedJsonException.class);
    assertThatThrownBy(() -> StrictJson.readObject(deep.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(StrictJson.MalformedJsonException.class);
    assertThatThrownBy(() -> StrictJson.readObject(null))
        .isInstanceOf(StrictJson.MalformedJsonException.class);
  }

  @Test
  void theErrorNeverQuotesTheInput() {
    assertThatThrownBy(() -> StrictJson.readObject(bytes("{\"secret\": nope}")))
        .hasMessageNotContaining("secret")
        .hasMessageNotContaining("nope")
        .hasMessageContaining("offset");
    assertThatThrownBy(() -> StrictJson.readObject(bytes("{\"card_4242\":1,\"card_4242\":2}")))
        .hasMessageNotContaining("4242");
  }

  @Test
  void anIntegerIsOnlyAnIntegralNumberThatFitsALong() throws Exception {
    ObjectNode json =
        StrictJson.readObject(
            bytes(
                "{\"ok\":500,\"negative\":-5,\"max\":9223372036854775807,\"string\":\"500\","
                    + "\"fraction\":500.0,\"exponent\":5e2,\"big\":9223372036854775808,"
                    + "\"flag\":true,\"none\":null,\"object\":{\"v\":500},\"array\":[500]}"));

    assertThat(StrictJson.integer(json.get("ok"))).hasValue(500L);
    assertThat(StrictJson.integer(json.get("negative"))).hasValue(-5L);
    assertThat(StrictJson.integer(json.get("max"))).hasValue(Long.MAX_VALUE);
    for (String refused :
        List.of("string", "fraction", "exponent", "big", "flag", "none", "object", "array")) {
      assertThat(StrictJson.integer(json.get(refused))).as(refused).isEqualTo(OptionalLong.empty());
    }
    assertThat(StrictJson.integer(json.get("absent"))).isEmpty();
  }

  @Test
  void textIsOnlyAJsonString() throws Exception {
    ObjectNode json = StrictJson.readObject(bytes("{\"s\":\"EUR\",\"n\":978,\"z\":null}"));

    assertThat(StrictJson.text(json.get("s"))).isEqualTo("EUR");
    assertThat(StrictJson.text(json.get("n"))).isNull();
    assertThat(StrictJson.text(json.get("z"))).isNull();
    assertThat(StrictJson.text(json.get("absent"))).isNull();
  }

  @Test
  void refusesToWriteWhatJacksonCannotWrite() {
    assertThatThrownBy(() -> StrictJson.write(Map.of("a", new Object())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
