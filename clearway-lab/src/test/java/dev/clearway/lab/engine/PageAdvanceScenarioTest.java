package dev.clearway.lab.engine;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.service.testkit.EngineHarness.T0;
import static dev.clearway.service.testkit.EngineHarness.goal;
import static dev.clearway.service.testkit.EngineHarness.trade;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.AdvanceResult;
import dev.clearway.core.flow.engine.AdvanceResult.Outcome;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.ScriptedBusiness.Fulfil;
import dev.clearway.service.testkit.ScriptedWallet.Pay;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A scanner's claimed page moved together on the real engine over PostgreSQL: each round reads
 * every held flow's facts and writes the round's transitions in one group; a flow whose next call
 * has a side effect goes on alone; a flow whose lease was taken over after the claim is fenced and
 * left to its holder; every transition keeps its history row and its outbox event. On the MySQL
 * family the round's transitions are written one at a time, with the same results.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class PageAdvanceScenarioTest {
  private static final EngineConfig CONFIG = EngineConfig.compressed();
  private static final Instant DEADLINE = T0.plusSeconds(60);

  private final EngineHarness h = EngineHarness.fresh(CONFIG);

  @AfterEach
  void invariantsHold() {
    assertThat(Invariants.safety(h)).isEmpty();
  }

  /** One claimed page, as the scanner hands it to the runtime. */
  private List<Scanner.Claimed> claimPage() {
    List<Scanner.Claimed> claimed = new ArrayList<>();
    h.scanner.runRound(
        new Scanner.Dispatcher() {
          @Override
          public void dispatch(long flowId, Trigger trigger) {
            throw new AssertionError("the flow scanner hands whole pages");
          }

          @Override
          public void dispatchPage(List<Scanner.Claimed> page) {
            claimed.addAll(page);
          }
        });
    return claimed;
  }

  @Test
  void aPageMovesItsFlowsTogetherAndLeavesEachOtherCaseToItsOwnPath() throws Exception {
    // 1: charged, response lost; the business grants.   -> BIZ_SUCCESS in two grouped rounds
    // 2: charged, response lost; the business never does -> PAYED, then waits (alone)
    // 3: the charge never reached the wallet            -> sent again on the one-flow path
    // 4: charged, response lost; taken over after claim -> fenced: nothing written
    h.wallet.scriptPay(trade(1), Pay.RESPONSE_LOST);
    h.wallet.scriptPay(trade(2), Pay.RESPONSE_LOST);
    h.business.script(trade(2), Fulfil.NEVER);
    h.wallet.scriptPay(trade(3), Pay.TIMEOUT_BEFORE, Pay.SUCCESS);
    h.wallet.scriptPay(trade(4), Pay.RESPONSE_LOST);
    for (int i = 1; i <= 4; i++) {
      h.start(goal("R:page:" + i), DEADLINE);
      assertThat(h.flow(i).status()).isEqualTo(PAYING);
    }
    h.clock.advance(Duration.ofSeconds(5));

    List<Scanner.Claimed> page = claimPage();
    assertThat(page).extracting(Scanner.Claimed::id).containsExactly(1L, 2L, 3L, 4L);
    Trigger trigger = page.get(0).trigger();
    assertThat(page).allMatch(c -> c.trigger().lease().equals(trigger.lease()));
    PayFlow takenOver = h.flow(4);
    exec("UPDATE pay_flow_state SET lease_owner = 'another-worker' WHERE id = 4");

    List<AdvanceResult> results =
        h.advancer.advancePage(page.stream().map(c -> c.trigger().claimed()).toList(), trigger);

    Map<Long, AdvanceResult> byId =
        results.stream()
            .collect(Collectors.toMap(r -> r.flow().id(), Function.identity(), (a, b) -> b));
    assertThat(results).hasSize(4);
    assertThat(byId.get(1L).outcome()).isEqualTo(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.path(1)).endsWith("PAYING", "PAYED", "BIZ_SUCCESS");
    assertThat(h.history(1).get(h.history(1).size() - 1).trigger()).isEqualTo("SCANNER");

    assertThat(byId.get(2L).outcome()).isEqualTo(Outcome.WAITING);
    assertThat(h.flow(2).status()).isEqualTo(PAYED);
    assertThat(h.flow(2).leaseOwner()).as("rescheduled: released").isNull();

    assertThat(h.flow(3).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.wallet.charges(trade(3))).isEqualTo(1);

    assertThat(byId.get(4L).outcome()).isEqualTo(Outcome.BUSY);
    assertThat(h.flow(4).status()).isEqualTo(PAYING);
    assertThat(h.flow(4).version()).isEqualTo(takenOver.version());
    assertThat(h.flow(4).leaseOwner()).isEqualTo("another-worker");
    assertThat(h.events.count("leaseLost:pay_flow")).isEqualTo(1);

    // One outbox event per state that states a fact: captured and succeeded for 1, captured for 2.
    assertThat(count("SELECT count(*) FROM outbox_event WHERE aggregate_id = 1")).isEqualTo(2);
    assertThat(count("SELECT count(*) FROM outbox_event WHERE aggregate_id = 2")).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM outbox_event WHERE aggregate_id = 4")).isZero();
  }

  @Test
  void aPageWhoseLeaseExpiredIsClaimedAfreshFlowByFlow() {
    h.wallet.scriptPay(trade(1), Pay.RESPONSE_LOST);
    h.wallet.scriptPay(trade(2), Pay.RESPONSE_LOST);
    h.start(goal("R:expired:1"), DEADLINE);
    h.start(goal("R:expired:2"), DEADLINE);
    h.clock.advance(Duration.ofSeconds(5));
    List<Scanner.Claimed> page = claimPage();
    assertThat(page).hasSize(2);
    // The share waited in a queue past its lease: its rows may be stale and taken over.
    h.clock.advance(CONFIG.lease().plusMillis(1));

    List<AdvanceResult> results =
        h.advancer.advancePage(
            page.stream().map(c -> c.trigger().claimed()).toList(), page.get(0).trigger());

    assertThat(results).extracting(AdvanceResult::outcome).containsOnly(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.flow(2).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(h.history(1).get(h.history(1).size() - 1).trigger())
        .as("claimed afresh, outside the page")
        .isEqualTo("SCANNER");
  }

  private void exec(String statement) throws SQLException {
    try (Connection c = h.dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(statement)) {
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
  }

  private long count(String query) throws SQLException {
    try (Connection c = h.dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(query);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
