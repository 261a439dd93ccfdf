package dev.clearway.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.statement.MalformedStatementException;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.sim.psp.PspInjections;
import java.io.ByteArrayInputStream;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The differences the simulated Stripe account injects for the reconciliation chaos run show in its
 * balance report only, parsed by the production parser, and are recorded as ground truth.
 */
class StripeInjectionsTest {
  private final StripeFixture stripe = new StripeFixture();

  @AfterEach
  void stop() {
    stripe.close();
  }

  private static List<StatementLine> parse(byte[] report) throws Exception {
    List<StatementLine> lines = new ArrayList<>();
    new StripeBalanceReportParser().parse(new ByteArrayInputStream(report), lines::add);
    return lines.stream().filter(StatementLine::recordsMoney).toList();
  }

  @Test
  void anotherFeeAndALaterReversalShowInTheReportsAndAreRecorded() throws Exception {
    CreatePayment a = StripeFixture.payment("pm_card_visa", 1_000);
    CreatePayment b = StripeFixture.payment("pm_card_visa", 2_000);
    stripe.sim.injections().feeDelta(a.merchantReference(), 7);
    stripe.adapter.create(a);
    stripe.adapter.create(b);
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    assertThat(
            stripe.sim.reverse(
                b.merchantReference(),
                today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().plusSeconds(60)))
        .isTrue();
    assertThat(stripe.sim.reverse("no-such-order", today.atStartOfDay().toInstant(ZoneOffset.UTC)))
        .isFalse();

    assertThat(parse(stripe.sim.balanceReport(today)))
        .extracting(StatementLine::kind, StatementLine::attemptKey, StatementLine::fee)
        .containsExactlyInAnyOrder(
            tuple(StatementLineKind.CHARGE, a.idempotencyKey(), 29L + 30 + 7),
            tuple(StatementLineKind.CHARGE, b.idempotencyKey(), 58L + 30));
    assertThat(parse(stripe.sim.balanceReport(today.plusDays(1))))
        .extracting(StatementLine::kind, StatementLine::attemptKey, StatementLine::amount)
        .containsExactly(tuple(StatementLineKind.ADJUSTMENT, b.idempotencyKey(), -2_000L));
    assertThat(stripe.sim.injections().injected())
        .containsExactly(
            new PspInjections.Injected("ADJUSTMENT_TO_REVIEW", b.merchantReference()),
            new PspInjections.Injected("FEE_MISMATCH", a.merchantReference()));
  }

  @Test
  void aCorruptedReportIsServedOnceAndTheParserRefusesItsLine() throws Exception {
    stripe.adapter.create(StripeFixture.payment("pm_card_visa", 1_000));
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    stripe.sim.injections().corruptNextStatements(1);

    byte[] corrupt = stripe.sim.balanceReport(today);
    assertThatThrownBy(() -> parse(corrupt))
        .isInstanceOf(MalformedStatementException.class)
        .hasMessageContaining("net is not amount - fee");
    assertThat(parse(stripe.sim.balanceReport(today))).hasSize(1);
    assertThat(stripe.sim.injections().corruptionsServed()).isEqualTo(1);
  }
}
