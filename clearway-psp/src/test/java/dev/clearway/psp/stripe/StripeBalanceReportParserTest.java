package dev.clearway.psp.stripe;

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

class StripeBalanceReportParserTest {

  static List<StatementLine> parse(String resource) throws Exception {
    List<StatementLine> lines = new ArrayList<>();
    try (InputStream in = StripeBalanceReportParserTest.class.getResourceAsStream(resource)) {
      new StripeBalanceReportParser().parse(in, lines::add);
    }
    return lines;
  }

  @Test
  void readsChargesRefundsAndAdjustments() throws Exception {
    List<StatementLine> lines = parse("/statement/stripe-balance-2026-12-01.csv");

    assertThat(lines).hasSize(6);
    StatementLine charge = lines.get(1);
    assertThat(charge.kind()).isEqualTo(StatementLineKind.CHARGE);
    assertThat(charge.pspReference()).isEqualTo("pi_3QaA");
    assertThat(charge.attemptKey()).isEqualTo("att-0001");
    assertThat(charge.refundOrderNo()).isNull();
    assertThat(charge.amount()).isEqualTo(1250);
    assertThat(charge.fee()).isEqualTo(66);
    assertThat(charge.currency()).isEqualTo("USD");
    assertThat(charge.at()).isEqualTo(Instant.ofEpochSecond(1764583200L));
    assertThat(lines.get(2).attemptKey()).isEqualTo("att-0002");
    assertThat(lines.get(5).kind()).isEqualTo(StatementLineKind.ADJUSTMENT);
    assertThat(lines.get(5).attemptKey()).isNull();
    assertThat(lines.get(5).pspReference()).isEqualTo("txn_1QaD");
  }

  @Test
  void aRefundLineCarriesStripesRefundIdThePaymentsAttemptKeyAndOurRefundNumber() throws Exception {
    List<StatementLine> lines = parse("/statement/stripe-balance-2026-12-01.csv");

    StatementLine ours = lines.get(3);
    assertThat(ours.kind()).isEqualTo(StatementLineKind.REFUND);
    assertThat(ours.pspReference()).isEqualTo("re_3QaC");
    assertThat(ours.refundOrderNo()).isEqualTo("a_T0001_1");
    assertThat(ours.attemptKey()).isEqualTo("att-0001");
    assertThat(ours.amount()).isEqualTo(-250);
    assertThat(ours.fee()).isZero();
    // A refund made without our number (in Stripe's dashboard): only the payment names it.
    StatementLine outside = lines.get(4);
    assertThat(outside.kind()).isEqualTo(StatementLineKind.REFUND);
    assertThat(outside.pspReference()).isEqualTo("re_3QaE");
    assertThat(outside.refundOrderNo()).isNull();
    assertThat(outside.attemptKey()).isEqualTo("att-0002");
    assertThat(outside.amount()).isEqualTo(-400);
  }

  @ParameterizedTest
  @CsvSource({
    "stripe-bad-amount.csv, 3, amount is not a whole number",
    "stripe-wrong-columns.csv, 4, 'expected 10 columns, found 9'",
    "stripe-refund-metadata-on-charge.csv, 2, refund metadata on a charge line",
    "stripe-net-mismatch.csv, 3, net is not amount - fee",
  })
  void aMalformedReportNamesTheLineAndTheReason(String file, long line, String reason) {
    assertThatThrownBy(() -> parse("/statement/" + file))
        .isInstanceOfSatisfying(
            MalformedStatementException.class,
            e -> {
              assertThat(e.lineNo()).isEqualTo(line);
              assertThat(e.reason()).isEqualTo(reason);
            });
  }

  @Test
  void quotedFieldsMayHoldCommasAndQuotes() throws Exception {
    assertThat(StripeBalanceReportParser.split(1, "a,\"b,c\",\"d\"\"e\","))
        .containsExactly("a", "b,c", "d\"e", "");
    assertThatThrownBy(() -> StripeBalanceReportParser.split(1, "a,\"b"))
        .isInstanceOf(MalformedStatementException.class);
  }
}
