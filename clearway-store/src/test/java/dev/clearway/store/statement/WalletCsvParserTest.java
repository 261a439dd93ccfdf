package dev.clearway.store.statement;

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

class WalletCsvParserTest {

  static List<StatementLine> parse(String resource) throws Exception {
    List<StatementLine> lines = new ArrayList<>();
    try (InputStream in = WalletCsvParserTest.class.getResourceAsStream(resource)) {
      new WalletCsvParser().parse(in, lines::add);
    }
    return lines;
  }

  @Test
  void readsChargesAndRefundsWithTheirRawText() throws Exception {
    List<StatementLine> lines = parse("/statement/wallet-2026-12-01.csv");

    assertThat(lines).hasSize(4);
    assertThat(lines.get(0).recordsMoney()).isFalse();
    assertThat(lines.get(0).raw()).isEqualTo(WalletCsvParser.HEADER);
    StatementLine charge = lines.get(1);
    assertThat(charge.kind()).isEqualTo(StatementLineKind.CHARGE);
    assertThat(charge.tradeOrderNo()).isEqualTo("T-1001");
    assertThat(charge.amount()).isEqualTo(1250);
    assertThat(charge.at()).isEqualTo(Instant.parse("2026-12-01T02:00:00Z"));
    assertThat(charge.raw()).isEqualTo("charge,T-1001,T-1001,1250,CNY,2026-12-01T02:00:00Z");
    StatementLine refund = lines.get(3);
    assertThat(refund.kind()).isEqualTo(StatementLineKind.REFUND);
    assertThat(refund.refundOrderNo()).isEqualTo("R-2001");
    assertThat(refund.tradeOrderNo()).isEqualTo("T-1001");
    assertThat(refund.amount()).isEqualTo(-250);
    assertThat(refund.lineNo()).isEqualTo(4);
  }

  @Test
  void aBadAmountNamesItsLine() {
    assertThatThrownBy(() -> parse("/statement/wallet-bad-amount.csv"))
        .isInstanceOfSatisfying(
            MalformedStatementException.class,
            e -> {
              assertThat(e.lineNo()).isEqualTo(3);
              assertThat(e.reason()).contains("amount");
            });
  }

  @Test
  void aWrongColumnCountNamesItsLine() {
    assertThatThrownBy(() -> parse("/statement/wallet-wrong-columns.csv"))
        .isInstanceOfSatisfying(
            MalformedStatementException.class,
            e -> {
              assertThat(e.lineNo()).isEqualTo(3);
              assertThat(e.reason()).contains("expected 6 columns, found 5");
            });
  }
}
