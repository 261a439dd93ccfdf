package dev.clearway.psp.wechat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.statement.MalformedStatementException;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WechatTradeBillParserTest {

  static List<StatementLine> parse(String resource) throws Exception {
    List<StatementLine> lines = new ArrayList<>();
    try (InputStream in = WechatTradeBillParserTest.class.getResourceAsStream(resource)) {
      new WechatTradeBillParser().parse(in, lines::add);
    }
    return lines;
  }

  @Test
  void readsTradesRefundsAndTheSummary() throws Exception {
    List<StatementLine> lines = parse("/statement/wechat-tradebill-2026-12-01.txt");

    assertThat(lines).hasSize(6);
    assertThat(lines.stream().filter(StatementLine::recordsMoney)).hasSize(3);
    StatementLine charge = lines.get(1);
    assertThat(charge.kind()).isEqualTo(StatementLineKind.CHARGE);
    assertThat(charge.attemptKey()).isEqualTo("att-0001");
    assertThat(charge.tradeOrderNo()).isEqualTo("ORD-1");
    assertThat(charge.pspReference()).isEqualTo("4200001234202612010000000001");
    assertThat(charge.amount()).isEqualTo(1250);
    assertThat(charge.fee()).isEqualTo(8);
    assertThat(charge.at()).isEqualTo(Instant.parse("2026-12-01T02:00:00Z"));
    assertThat(charge.raw()).startsWith("`2026-12-01 10:00:00,`wxd678efh567hg6787,");
    StatementLine refund = lines.get(3);
    assertThat(refund.kind()).isEqualTo(StatementLineKind.REFUND);
    assertThat(refund.refundOrderNo()).isEqualTo("RF-1");
    assertThat(refund.amount()).isEqualTo(-250);
    assertThat(refund.fee()).isEqualTo(-2);
    assertThat(lines.get(5).raw()).isEqualTo("`3,`112.50,`2.50,`0.00,`0.66,`112.50,`2.50");
  }

  @ParameterizedTest
  @CsvSource({
    "wechat-missing-backtick.txt, 3, column 21 is not prefixed by a backtick",
    "wechat-bad-amount.txt, 3, 应结订单金额 is not yuan with two decimals",
    "wechat-wrong-columns.txt, 3, 'expected 27 columns, found 26'",
    "wechat-truncated-summary.txt, 6, truncated: summary header without summary",
    "wechat-short-summary.txt, 6, 'expected 7 columns, found 4'",
    "wechat-summary-disagrees.txt, 6, 应结订单总金额 is 11249 but the lines add up to 11250",
  })
  void aMalformedBillNamesTheLineAndTheReason(String file, long line, String reason) {
    assertThatThrownBy(() -> parse("/statement/" + file))
        .isInstanceOfSatisfying(
            MalformedStatementException.class,
            e -> {
              assertThat(e.lineNo()).isEqualTo(line);
              assertThat(e.reason()).isEqualTo(reason);
            });
  }

  @Test
  void yuanAreReadAsFen() throws Exception {
    assertThat(WechatTradeBillParser.yuan(1, "x", "0.01")).isEqualTo(1);
    assertThat(WechatTradeBillParser.yuan(1, "x", "-12.34")).isEqualTo(-1234);
    assertThatThrownBy(() -> WechatTradeBillParser.yuan(1, "x", "1.2"))
        .isInstanceOf(MalformedStatementException.class);
  }
}
