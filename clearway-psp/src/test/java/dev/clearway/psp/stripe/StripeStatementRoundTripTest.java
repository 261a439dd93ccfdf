package dev.clearway.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import java.io.ByteArrayInputStream;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulator's balance report parses back to the payments and refunds it executed. */
class StripeStatementRoundTripTest {
  private final StripeFixture stripe = new StripeFixture();

  @AfterEach
  void stop() {
    stripe.close();
  }

  @Test
  void theBalanceReportParsesBackToTheLedger() throws Exception {
    CreatePayment a = StripeFixture.payment("pm_card_visa", 1_000);
    CreatePayment b = StripeFixture.payment("pm_card_visa", 4_321);
    CreatePayment declined = StripeFixture.payment("pm_card_chargeDeclined", 700);
    String idA = stripe.adapter.create(a).providerPaymentId();
    String idB = stripe.adapter.create(b).providerPaymentId();
    stripe.adapter.create(declined);
    AttemptRef refA = new AttemptRef(a.idempotencyKey(), a.merchantReference(), idA);
    stripe.adapter.refund(new RefundCall("rf_stmt", refA, 300, 1_000, "EUR"));

    byte[] report = stripe.sim.balanceReport(LocalDate.now(ZoneOffset.UTC));
    List<StatementLine> lines = new ArrayList<>();
    new StripeBalanceReportParser().parse(new ByteArrayInputStream(report), lines::add);

    List<StatementLine> money = lines.stream().filter(StatementLine::recordsMoney).toList();
    assertThat(money)
        .extracting(StatementLine::kind, StatementLine::attemptKey, StatementLine::amount)
        .containsExactlyInAnyOrder(
            tuple(StatementLineKind.CHARGE, a.idempotencyKey(), 1_000L),
            tuple(StatementLineKind.CHARGE, b.idempotencyKey(), 4_321L),
            tuple(StatementLineKind.REFUND, a.idempotencyKey(), -300L));
    assertThat(money)
        .filteredOn(l -> l.kind() == StatementLineKind.CHARGE)
        .extracting(StatementLine::pspReference)
        .containsExactlyInAnyOrder(idA, idB);
    // The refund line is Stripe's refund (re_...), with our number from the refund's metadata.
    StatementLine refund =
        money.stream().filter(l -> l.kind() == StatementLineKind.REFUND).findFirst().orElseThrow();
    assertThat(refund.refundOrderNo()).isEqualTo("rf_stmt");
    assertThat(refund.pspReference()).startsWith("re_");
    assertThat(money).allSatisfy(l -> assertThat(l.currency()).isEqualTo("EUR"));
    assertThat(money)
        .filteredOn(l -> l.attemptKey().equals(b.idempotencyKey()))
        .extracting(StatementLine::fee)
        .containsExactly(155L);
  }
}
