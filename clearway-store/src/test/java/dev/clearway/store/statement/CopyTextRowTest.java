package dev.clearway.store.statement;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CopyTextRowTest {

  private static String text(CopyTextRow row) {
    return new String(row.bytes(), 0, row.length(), StandardCharsets.UTF_8);
  }

  @Test
  void escapesTextAndEncodesUtf8() {
    CopyTextRow row = new CopyTextRow();
    row.clear().number(7).text("a\tb\\c\r\nd").text("`微信支付`,€").none().text(null).end();
    assertThat(text(row)).isEqualTo("7\ta\\tb\\\\c\\r\\nd\t`微信支付`,€\t\\N\t\\N\n");
  }

  @Test
  void writesNumbersAndInstantsAsPostgresReadsThem() {
    CopyTextRow row = new CopyTextRow();
    row.clear()
        .number(0)
        .number(-250)
        .number(Long.MIN_VALUE)
        .number(Long.MAX_VALUE)
        .instant(Instant.parse("2026-12-01T02:00:00Z"))
        .instant(Instant.parse("2026-12-01T02:00:01.086Z"))
        .instant(Instant.parse("1969-12-31T23:59:59.5Z"))
        .end();
    assertThat(text(row))
        .isEqualTo(
            "0\t-250\t-9223372036854775808\t9223372036854775807\t2026-12-01T02:00:00Z"
                + "\t2026-12-01T02:00:01.086000000Z\t1969-12-31T23:59:59.500000000Z\n");
  }

  @Test
  void aRowLongerThanTheBufferGrowsIt() {
    String raw = "x".repeat(5_000) + "中";
    CopyTextRow row = new CopyTextRow();
    row.clear().text(raw).end();
    assertThat(text(row)).isEqualTo(raw + "\n");
    row.clear().number(1).end();
    assertThat(text(row)).isEqualTo("1\n");
  }
}
