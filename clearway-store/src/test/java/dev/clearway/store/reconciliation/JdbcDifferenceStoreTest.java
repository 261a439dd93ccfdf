package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.DAY;
import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.LocalAttempt;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.RepairKind;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.DifferenceStore.Found;
import dev.clearway.core.reconciliation.port.DifferenceStore.Move;
import dev.clearway.core.reconciliation.port.DifferenceStore.Recorded;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcDifferenceStoreTest {
  private final ReconFixture fx = new ReconFixture();
  private final JdbcDifferenceStore store = new JdbcDifferenceStore(fx.ds, fx.dialect);
  private final JdbcReconRuns runs = new JdbcReconRuns(fx.ds, fx.dialect);
  private long run;

  @BeforeEach
  void reset() {
    fx.reset();
    run = startRun(DAY);
  }

  private long startRun(java.time.LocalDate day) {
    return runs.start("acct_1", day, null, "node-a", T0.plusSeconds(600), T0).orElseThrow().id();
  }

  static StatementFact charge(String trade, String key, Instant at) {
    return StatementFact.charge(trade, key, "pi_" + trade, 500, 15, "EUR", at, "acct_1");
  }

  static LocalFact paying(String trade) {
    return new LocalFact(
        41,
        new GoalKey("m1", 7, "renewal", "goal-" + trade),
        trade,
        "r_" + trade,
        FlowStatus.PAYING,
        2,
        new LocalAttempt(9, "k-" + trade, AttemptStatus.UNKNOWN, 1),
        null,
        500,
        "EUR",
        "acct_1",
        T0,
        T0,
        CompensationState.NONE);
  }

  private Found chargedLocalPaying(long runId, String trade, Instant actionableAt) {
    Difference d =
        new Difference(
            DifferenceClass.CHARGED_LOCAL_PAYING,
            charge(trade, "k-" + trade, T0),
            paying(trade),
            null,
            null,
            actionableAt,
            "PSP charged, flow PAYING");
    return new Found(runId, DAY, d, MatchConfidence.CONFIRMED, 3L, 7L);
  }

  @Test
  void recordingIsIdempotentOnAccountClassAndIdentity() {
    Recorded first = store.record(chargedLocalPaying(run, "T1", T0), T0);
    assertThat(first.created()).isTrue();
    RecordedDifference d = first.difference();
    assertThat(d.account()).isEqualTo("acct_1");
    assertThat(d.identity()).isEqualTo("trade:T1");
    assertThat(d.state()).isEqualTo(DifferenceState.OPEN);
    assertThat(d.repairKind()).isEqualTo(RepairKind.AUTO_SETTLE_PAID);
    assertThat(d.confidence()).isEqualTo(MatchConfidence.CONFIRMED);
    assertThat(d.flowId()).isEqualTo(41L);
    assertThat(d.statementFileId()).isEqualTo(3L);
    assertThat(d.statementLineNo()).isEqualTo(7L);
    assertThat(d.statementAmountMinor()).isEqualTo(500L);
    assertThat(d.localAmountMinor()).isEqualTo(500L);
    assertThat(d.version()).isZero();
    String evidence =
        fx.strings("SELECT evidence FROM recon_difference WHERE id = ?", d.id()).get(0);
    assertThat(evidence)
        .contains("\"flowStatus\":\"PAYING\"", "\"pspReference\":\"pi_T1\"", "\"lineNo\":7")
        .contains("\"attemptKey\":\"k-T1\"", "\"feeMinor\":15");
    assertThat(history(d.id())).containsExactly("0:null>OPEN by run " + run);

    runs.finish(run, "node-a", dev.clearway.core.reconciliation.domain.ReconCounts.none(), T0);
    long second = startRun(DAY.plusDays(1));
    Recorded again = store.record(chargedLocalPaying(second, "T1", T0), T0.plusSeconds(5));
    assertThat(again.created()).isFalse();
    assertThat(again.difference().id()).isEqualTo(d.id());
    assertThat(fx.strings("SELECT CONCAT(last_run_id, '/', run_id) FROM recon_difference"))
        .containsExactly(second + "/" + run);
    assertThat(fx.queryLong("SELECT count(*) FROM recon_difference")).isEqualTo(1);
    assertThat(store.record(chargedLocalPaying(second, "T1", T0), T0).difference().version())
        .isEqualTo(again.difference().version());
  }

  @Test
  void aLineNoLocalRowKnowsIsIdentifiedByItsOwnReferences() {
    StatementFact line = charge(null, "k-x", T0);
    Difference d =
        new Difference(
            DifferenceClass.UNKNOWN_STATEMENT_LINE, line, null, null, null, T0, "no local row");
    RecordedDifference recorded =
        store.record(new Found(run, DAY, d, MatchConfidence.NONE, 3L, 8L), T0).difference();

    assertThat(recorded.identity()).isEqualTo("line:CHARGE psp pi_null");
    assertThat(recorded.flowId()).isNull();
    assertThat(recorded.localAmountMinor()).isNull();
    assertThat(recorded.repairKind()).isEqualTo(RepairKind.NEEDS_PERSON);
  }

  @Test
  void claimDueLeasesOnlyActionableRowsAndHoldsThemUntilTheLeaseExpires() {
    Instant now = T0.plusSeconds(100);
    long due = store.record(chargedLocalPaying(run, "T1", T0), T0).difference().id();
    store.record(chargedLocalPaying(run, "T2", now.plusSeconds(3600)), T0);
    long older =
        store.record(chargedLocalPaying(run, "T3", T0.minusSeconds(5)), T0).difference().id();

    List<RecordedDifference> claimed = store.claimDue("rep-a", now.plusSeconds(30), now, 10);
    assertThat(claimed).extracting(RecordedDifference::id).containsExactly(older, due);
    assertThat(claimed).extracting(RecordedDifference::version).containsOnly(1L);
    assertThat(store.claimDue("rep-b", now.plusSeconds(30), now.plusSeconds(10), 10)).isEmpty();

    Instant later = now.plusSeconds(31);
    assertThat(store.claimDue("rep-b", later.plusSeconds(30), later, 1))
        .extracting(RecordedDifference::id)
        .containsExactly(older);
    assertThat(fx.strings("SELECT lease_owner FROM recon_difference WHERE id = ?", older))
        .containsExactly("rep-b");
  }

  @Test
  void aMoveIsACompareAndSetOnStateVersionAndLeaseOwner() {
    Instant now = T0.plusSeconds(100);
    store.record(chargedLocalPaying(run, "T1", T0), T0);
    RecordedDifference held = store.claimDue("rep-a", now.plusSeconds(30), now, 1).get(0);
    long v = held.version();

    assertThat(store.move(move(held.id(), v - 1, "rep-a", DifferenceState.AUTO_REPAIRING)))
        .isFalse();
    assertThat(store.move(move(held.id(), v, "rep-b", DifferenceState.AUTO_REPAIRING))).isFalse();
    assertThat(
            store.move(
                new Move(
                    held.id(),
                    v,
                    DifferenceState.NEEDS_PERSON,
                    DifferenceState.RESOLVED,
                    null,
                    "alice",
                    "wrong state read",
                    null,
                    now)))
        .isFalse();
    assertThat(store.move(move(held.id(), v, "rep-a", DifferenceState.AUTO_REPAIRING))).isTrue();
    RecordedDifference repairing = store.find(held.id()).orElseThrow();
    assertThat(repairing.state()).isEqualTo(DifferenceState.AUTO_REPAIRING);
    assertThat(repairing.version()).isEqualTo(v + 1);
    assertThat(fx.strings("SELECT lease_owner FROM recon_difference")).containsExactly("rep-a");
    assertThat(store.move(move(held.id(), v, "rep-a", DifferenceState.RESOLVED))).isFalse();

    Move resolve =
        new Move(
            held.id(),
            v + 1,
            DifferenceState.AUTO_REPAIRING,
            DifferenceState.RESOLVED,
            "rep-a",
            "rep-a",
            "settled paid",
            null,
            now.plusSeconds(1));
    assertThat(store.move(resolve)).isTrue();
    assertThat(store.find(held.id()).orElseThrow().state()).isEqualTo(DifferenceState.RESOLVED);
    assertThat(fx.strings("SELECT lease_owner FROM recon_difference")).containsNull();
    assertThat(history(held.id()))
        .containsExactly(
            "0:null>OPEN by run " + run,
            (v + 1) + ":OPEN>AUTO_REPAIRING by rep-a",
            (v + 2) + ":AUTO_REPAIRING>RESOLVED by rep-a");
    assertThatThrownBy(
            () ->
                store.move(
                    new Move(
                        held.id(),
                        v + 2,
                        DifferenceState.RESOLVED,
                        DifferenceState.NEEDS_PERSON,
                        null,
                        "alice",
                        "reopen",
                        null,
                        now)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRescheduleKeepsTheStateSetsTheNextLookAndReleasesTheLease() {
    Instant now = T0.plusSeconds(100);
    store.record(chargedLocalPaying(run, "T1", T0), T0);
    RecordedDifference held = store.claimDue("rep-a", now.plusSeconds(30), now, 1).get(0);
    Instant next = now.plus(Duration.ofHours(6));

    assertThat(
            store.move(
                new Move(
                    held.id(),
                    held.version(),
                    DifferenceState.OPEN,
                    DifferenceState.OPEN,
                    "rep-a",
                    "rep-a",
                    "wait for the window",
                    next,
                    now)))
        .isTrue();
    RecordedDifference waiting = store.find(held.id()).orElseThrow();
    assertThat(waiting.actionableAt()).isEqualTo(next);
    assertThat(store.claimDue("rep-b", now.plusSeconds(60), now.plusSeconds(1), 5)).isEmpty();
    assertThat(store.claimDue("rep-b", next.plusSeconds(60), next, 5)).hasSize(1);
  }

  @Test
  void theGuardTriggerRefusesIllegalEdgesUpdatesOfResolvedAndFrozenColumns() {
    long id = store.record(chargedLocalPaying(run, "T1", T0), T0).difference().id();
    fx.exec("UPDATE recon_difference SET state = 'NEEDS_PERSON', version = version + 1");

    assertThatThrownBy(
            () -> fx.exec("UPDATE recon_difference SET state = 'OPEN', version = version + 1"))
        .hasMessageContaining("illegal move NEEDS_PERSON -> OPEN");
    assertThatThrownBy(
            () ->
                fx.exec(
                    "UPDATE recon_difference SET state = 'AUTO_REPAIRING', version = version + 1"))
        .hasMessageContaining("illegal move");
    assertThatThrownBy(() -> fx.exec("UPDATE recon_difference SET state = 'RESOLVED'"))
        .hasMessageContaining("version by one");
    assertThatThrownBy(
            () -> fx.exec("UPDATE recon_difference SET evidence = '{}', version = version + 1"))
        .hasMessageContaining("frozen");
    assertThatThrownBy(() -> fx.exec("DELETE FROM recon_difference"))
        .hasMessageContaining("never deleted");

    fx.exec("UPDATE recon_difference SET state = 'RESOLVED', version = version + 1");
    assertThatThrownBy(
            () -> fx.exec("UPDATE recon_difference SET detail = 'x', version = version + 1"))
        .hasMessageContaining("RESOLVED is final");
    assertThat(store.find(id).orElseThrow().state()).isEqualTo(DifferenceState.RESOLVED);
  }

  private static Move move(long id, long version, String owner, DifferenceState next) {
    return new Move(
        id,
        version,
        next == DifferenceState.AUTO_REPAIRING
            ? DifferenceState.OPEN
            : DifferenceState.AUTO_REPAIRING,
        next,
        owner,
        owner == null ? "alice" : owner,
        "repair",
        null,
        T0.plusSeconds(120));
  }

  private List<String> history(long id) {
    return fx.strings(
        "SELECT CONCAT(version, ':', coalesce(from_state, 'null'), '>', to_state, ' by ', actor)"
            + " FROM recon_difference_history WHERE difference_id = ? ORDER BY version",
        id);
  }
}
