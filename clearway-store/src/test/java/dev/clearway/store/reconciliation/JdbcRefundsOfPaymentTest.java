package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static dev.clearway.store.reconciliation.ReconFixture.WALLET;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.decision.StatementMatcher;
import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The refunds of one payment, read in one statement: what a refund line naming only the payment (a
 * PSP's own refund id, the payment's metadata) is matched against.
 */
class JdbcRefundsOfPaymentTest {
  private final ReconFixture fx = new ReconFixture();
  private final JdbcLocalFacts facts = new JdbcLocalFacts(fx.ds, fx.dialect, WALLET);

  @BeforeEach
  void reset() {
    fx.reset();
    fx.account(1, "acct_1");
  }

  @Test
  void aPaymentsRefundsAreItsRefundOrdersItsOwnRefundAndItsAttemptsCompensations() {
    long t1 = fx.flow("T1", "REFUNDED", T0.plusSeconds(90));
    long failed = fx.attempt("T1", 1, 1, "k1-a", "FAILED", T0);
    fx.attempt("T1", 2, 1, "k1-b", "SUCCEEDED", T0.plusSeconds(2));
    fx.compensation(failed, "T1", "comp-T1", "REFUNDED", T0.plusSeconds(30));
    fx.refundOrder(t1, "T1", 1, "AFTER_SALE", "SUCCESS", 100, T0.plusSeconds(40));
    fx.refundOrder(t1, "T1", 2, "AFTER_SALE", "PROCESSING", 150, T0.plusSeconds(50));
    long t2 = fx.flow("T2", "BIZ_SUCCESS", T0);
    fx.attempt("T2", 1, 1, "k2", "SUCCEEDED", T0);
    fx.refundOrder(t2, "T2", 1, "AFTER_SALE", "SUCCESS", 70, T0);
    fx.flow("T3", "BIZ_SUCCESS", T0);

    List<LocalFact> refunds = facts.refundsOfPayment("T1");

    assertThat(refunds)
        .extracting(f -> f.refundOrderNo() + " " + amount(f) + " " + f.locallyRefunded())
        .containsExactlyInAnyOrder(
            "a_T1_1 100 true", "a_T1_2 150 false", "r_T1 500 true", "comp-T1 500 true");
    assertThat(refunds).allMatch(f -> f.tradeOrderNo().equals("T1"));
    // A compensation is seen with the attempt it refunds; the others with the charged attempt.
    assertThat(refunds)
        .extracting(f -> f.refundOrderNo() + " " + f.attemptKey())
        .contains("comp-T1 k1-a", "a_T1_1 k1-b", "r_T1 k1-b");
    assertThat(facts.refundsOfPayment("T2"))
        .extracting(LocalFact::refundOrderNo)
        .containsExactly("a_T2_1");
    assertThat(facts.refundsOfPayment("T3")).isEmpty();
    assertThat(facts.refundsOfPayment("T-none")).isEmpty();
  }

  @Test
  void refundLinesCarryingOnlyThePaymentsKeyAreMatchedToItsRefundsOfTheirAmount() {
    long t1 = fx.flow("T1", "BIZ_SUCCESS", T0.plusSeconds(90));
    fx.attempt("T1", 1, 1, "k1", "SUCCEEDED", T0);
    fx.refundOrder(t1, "T1", 1, "AFTER_SALE", "SUCCESS", 100, T0.plusSeconds(40));
    fx.refundOrder(t1, "T1", 2, "AFTER_SALE", "PROCESSING", 100, T0.plusSeconds(50));
    fx.refundOrder(t1, "T1", 3, "AFTER_SALE", "SUCCESS", 200, T0.plusSeconds(60));
    List<String> matched = new ArrayList<>();
    AccountTerms terms = new AccountTerms("acct_1", Duration.ofDays(2), 29_000, 30, "EUR");
    StatementMatcher matcher =
        new StatementMatcher(
            facts,
            goal -> Optional.empty(),
            new ReconWindow(terms, T0, T0.plus(Duration.ofDays(1)), T0.plus(Duration.ofDays(5))),
            false,
            (line, local, ambiguous) -> matched.add(local.refundOrderNo() + " " + ambiguous));

    List<Difference> exact = matcher.match(line("re_1", 200));
    List<Difference> firstOfTwo = matcher.match(line("re_2", 100));
    List<Difference> lastOfTwo = matcher.match(line("re_3", 100));
    List<Difference> noneLeft = matcher.match(line("re_4", 100));

    assertThat(matched).containsExactly("a_T1_3 false", "a_T1_1 true", "a_T1_2 false");
    assertThat(exact).isEmpty();
    assertThat(firstOfTwo).isEmpty();
    assertThat(lastOfTwo)
        .singleElement()
        .extracting(Difference::kind)
        .isEqualTo(DifferenceClass.REFUND_SETTLED_LOCAL_PENDING);
    assertThat(lastOfTwo.get(0).local().refund().status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(noneLeft)
        .singleElement()
        .extracting(Difference::kind)
        .isEqualTo(DifferenceClass.UNKNOWN_STATEMENT_LINE);
  }

  private static long amount(LocalFact f) {
    return f.refund() != null ? f.refund().amountMinor() : f.amountMinor();
  }

  private static StatementFact line(String pspId, long amount) {
    return new StatementFact(
        StatementKind.REFUND,
        LineOutcome.SUCCEEDED,
        null,
        null,
        "k1",
        pspId,
        amount,
        0,
        "EUR",
        T0.plusSeconds(3600),
        "acct_1");
  }
}
