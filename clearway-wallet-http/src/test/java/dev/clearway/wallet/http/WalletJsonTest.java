package dev.clearway.wallet.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The wallet client's JSON: flat objects only, read strictly, written in field order. */
class WalletJsonTest {

  @Test
  void writesTheFieldsInOrder() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("tradeOrderNo", "t_1");
    body.put("userId", 42L);
    body.put("amount", 700L);
    body.put("currency", "CNY");

    assertThat(WalletJson.write(body))
        .isEqualTo("{\"tradeOrderNo\":\"t_1\",\"userId\":42,\"amount\":700,\"currency\":\"CNY\"}");
    assertThat(WalletJson.write(Map.of())).isEqualTo("{}");
  }

  @Test
  void readsAFlatObjectWithoutConvertingAnyValue() {
    Map<String, Object> json =
        WalletJson.readFlatObject(
            ("{\"status\":\"SUCCEEDED\",\"amount\":\"700\",\"fee\":1.50,\"n\":7,"
                    + "\"retryable\":true,\"errorCode\":null}")
                .getBytes(StandardCharsets.UTF_8));

    assertThat(json)
        .containsEntry("status", "SUCCEEDED")
        .containsEntry("amount", "700")
        .containsEntry("fee", new BigDecimal("1.50"))
        .containsEntry("n", 7L)
        .containsEntry("retryable", true)
        .containsEntry("errorCode", null);
  }

  @Test
  void anythingButOneFlatObjectIsRefused() {
    for (String text :
        new String[] {
          "{\"status\":\"SUCCEEDED\",\"status\":\"FAILED\"}",
          "{\"status\":\"SUCCEEDED\"} {}",
          "{\"status\":{\"nested\":true}}",
          "{\"status\":[\"SUCCEEDED\"]}",
          "[{\"status\":\"SUCCEEDED\"}]",
          "\"SUCCEEDED\"",
          "",
          "<html>busy</html>",
          "{\"status\":\"SUCCEEDED\""
        }) {
      assertThat(WalletJson.readFlatObject(text.getBytes(StandardCharsets.UTF_8)))
          .as(text)
          .isNull();
    }
  }
}
