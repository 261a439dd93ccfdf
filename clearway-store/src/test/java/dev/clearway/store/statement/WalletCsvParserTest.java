package dev.clearway.store.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.statement.MalformedStatementException;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "charge,T-1,T-1,100,CNY,2026-12-01T02:00:00Z,x|expected 6 columns, found 7",
        "charge,T-1,T-1,100,CNY|expected 6 columns, found 5",
        "charge,,T-1,100,CNY,2026-12-01T02:00:00Z|column 2 is empty",
        "charge,T-1,T-1,100,CNY,|column 6 is empty",
        "charge,T-1,T-1,-100,CNY,2026-12-01T02:00:00Z|amount is not whole minor units",
        "charge,T-1,T-1,1.5,CNY,2026-12-01T02:00:00Z|amount is not whole minor units",
        "charge,T-1,T-1,1234567890123456789,CNY,2026-12-01T02:00:00Z|amount is not whole minor units",
        "charge,T-1,T-1,000,CNY,2026-12-01T02:00:00Z|amount is not positive",
        "charge,T-1,T-1,100,cny,2026-12-01T02:00:00Z|currency is not three capital letters",
        "charge,T-1,T-1,100,CNYX,2026-12-01T02:00:00Z|currency is not three capital letters",
        "charge,T-1,T-1,100,CNY,2026-12-01 02:00:00Z|at is not an ISO-8601 instant",
        "charge,T-1,T-1,100,CNY,2026-02-30T02:00:00Z|at is not an ISO-8601 instant",
        "payout,T-1,T-1,100,CNY,2026-12-01T02:00:00Z|kind is not charge or refund"
      })
  void aMalformedLineIsRefusedWithItsReason(String line, String reason) {
    String file =
        WalletCsvParser.HEADER + "\ncharge,T-0,T-0,1,CNY,2026-12-01T01:00:00Z\n" + line + "\n";
    assertThatThrownBy(
            () ->
                new WalletCsvParser()
                    .parse(
                        new ByteArrayInputStream(file.getBytes(StandardCharsets.UTF_8)), l -> {}))
        .isInstanceOfSatisfying(
            MalformedStatementException.class,
            e -> {
              assertThat(e.lineNo()).isEqualTo(3);
              assertThat(e.reason()).isEqualTo(reason);
            });
  }

  @Test
  void anInstantWithAnOffsetOrFractionIsRead() throws Exception {
    String file =
        WalletCsvParser.HEADER
            + "\ncharge,T-1,T-1,100,CNY,2026-12-01T10:00:00.5+08:00"
            + "\nrefund,R-1,T-1,40,CNY,2026-12-01T02:00:01.123456789Z\n";
    List<StatementLine> lines = new ArrayList<>();
    new WalletCsvParser()
        .parse(new ByteArrayInputStream(file.getBytes(StandardCharsets.UTF_8)), lines::add);
    assertThat(lines.get(1).at()).isEqualTo(Instant.parse("2026-12-01T02:00:00.5Z"));
    assertThat(lines.get(2).at()).isEqualTo(Instant.parse("2026-12-01T02:00:01.123456789Z"));
    assertThat(lines.get(2).amount()).isEqualTo(-40);
  }
}
