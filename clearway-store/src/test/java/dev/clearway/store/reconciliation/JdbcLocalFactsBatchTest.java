package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static dev.clearway.store.reconciliation.ReconFixture.WALLET;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.domain.LocalFact;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The batched lookups answer what one lookup each would, in one query. */
class JdbcLocalFactsBatchTest {
  private final ReconFixture fx = new ReconFixture();
  private final JdbcLocalFacts facts = new JdbcLocalFacts(fx.ds, fx.dialect, WALLET);

  @BeforeEach
  void reset() {
    fx.reset();
    fx.account(1, "acct_1");
  }

  @Test
  void manyTradeOrdersAndKeysAtOnceAnswerAsOneLookupEach() {
    fx.flow("T1", "PAYED", T0.plusSeconds(5));
    fx.attempt("T1", 1, 1, "k-first", "FAILED", T0.plusSeconds(1));
    fx.attempt("T1", 2, 1, "k-second", "SUCCEEDED", T0.plusSeconds(4));
    fx.flow("T2", "BIZ_SUCCESS", T0.plusSeconds(9));

    Map<String, LocalFact> byTrade = facts.byTradeOrderNos(List.of("T1", "T2", "T-none"));
    Map<String, LocalFact> byKey = facts.byAttemptKeys(List.of("k-first", "k-second", "k-none"));

    assertThat(byTrade).containsOnlyKeys("T1", "T2");
    assertThat(byTrade.get("T1")).isEqualTo(facts.byTradeOrderNo("T1").orElseThrow());
    assertThat(byTrade.get("T2")).isEqualTo(facts.byTradeOrderNo("T2").orElseThrow());
    assertThat(byTrade.get("T1").attemptKey()).isEqualTo("k-second");
    assertThat(byKey).containsOnlyKeys("k-first", "k-second");
    assertThat(byKey.get("k-first")).isEqualTo(facts.byAttemptKey("k-first").orElseThrow());
    assertThat(byKey.get("k-second")).isEqualTo(facts.byAttemptKey("k-second").orElseThrow());
  }
}
