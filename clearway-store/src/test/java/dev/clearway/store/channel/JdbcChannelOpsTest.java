package dev.clearway.store.channel;

import static dev.clearway.store.channel.ConsoleChannelRows.NOW;
import static dev.clearway.store.channel.ConsoleChannelRows.accounts;
import static dev.clearway.store.channel.ConsoleChannelRows.attempt;
import static dev.clearway.store.channel.ConsoleChannelRows.compensation;
import static dev.clearway.store.channel.ConsoleChannelRows.evidence;
import static dev.clearway.store.channel.ConsoleChannelRows.order;
import static dev.clearway.store.channel.ConsoleChannelRows.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.channel.JdbcChannelOps.AccountFigures;
import dev.clearway.store.channel.JdbcChannelOps.Totals;
import dev.clearway.store.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The console's channel figures read from the channel tables of the real PostgreSQL. */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcChannelOpsTest {
  private final DataSource dataSource = TestDatabase.get().dataSource();
  private final JdbcChannelOps ops = new JdbcChannelOps(dataSource);
  private final JdbcChannelQueues queues = new JdbcChannelQueues(dataSource);
  private final JdbcOrderTimeline timeline = new JdbcOrderTimeline(dataSource);

  @BeforeEach
  void clean() throws SQLException {
    ConsoleChannelRows.clean();
  }

  @Test
  void emptyTablesGiveEmptyListsAndZeroes() {
    assertThat(ops.accounts(NOW)).isEmpty();
    assertThat(ops.totals(NOW)).isEqualTo(new Totals(0, 0, 0, 0, null, 0));
    assertThat(ops.compensationsByStatus())
        .containsExactly(
            Map.entry("PENDING", 0L), Map.entry("REFUNDED", 0L), Map.entry("MANUAL", 0L));
    assertThat(queues.manualCompensations(Long.MAX_VALUE, 50)).isEmpty();
    assertThat(queues.tasks(null, 50, NOW)).isEmpty();
    assertThat(timeline.order("T_none", Integer.MAX_VALUE, 10, 10)).isEmpty();
  }

  @Test
  void perAccountAttemptsOfTheLastHourUnknownShareAndRecoveryBacklog() throws SQLException {
    accounts();
    order("T_1");
    order("T_2");
    order("T_3");
    order("T_old");
    // Account 1: one UNKNOWN attempt (3 answers, 2 of them UNKNOWN), one FAILED, one old.
    attempt(101, "T_1", 1, 1, "INITIAL", null, "UNKNOWN", NOW.minusSeconds(600));
    attempt(102, "T_2", 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(300));
    attempt(103, "T_old", 1, 1, "INITIAL", null, "SUCCEEDED", NOW.minus(Duration.ofHours(2)));
    evidence(101, "RESPONSE", "CREATE", "UNKNOWN", NOW.minusSeconds(599));
    evidence(101, "QUERY", "RETRIEVE", "UNKNOWN", NOW.minusSeconds(500));
    evidence(102, "RESPONSE", "CREATE", "DEFINITE_FAILURE", NOW.minusSeconds(299));
    // Evidence older than the hour does not count, even on an attempt of the hour.
    evidence(103, "RESPONSE", "CREATE", "UNKNOWN", NOW.minus(Duration.ofHours(2)));
    // Account 2: the failover of T_2 succeeded, and a business retry.
    attempt(201, "T_2", 2, 2, "FAILOVER", 102L, "SUCCEEDED", NOW.minusSeconds(200));
    evidence(201, "RESPONSE", "CREATE", "CONFIRMED_SUCCESS", NOW.minusSeconds(199));
    attempt(104, "T_3", 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(120));
    attempt(202, "T_3", 2, 2, "BUSINESS_RETRY", 104L, "PENDING", NOW.minusSeconds(100));
    task(101, 1, "LEASED", NOW.minusSeconds(590));
    task(103, 1, "MANUAL", NOW.minus(Duration.ofHours(2)));
    task(202, 2, "READY", NOW.minusSeconds(90));
    task(201, 2, "RESOLVED", NOW.minusSeconds(190));

    List<AccountFigures> accounts = ops.accounts(NOW);

    assertThat(accounts).extracting(AccountFigures::id).containsExactly(1L, 2L, 3L);
    AccountFigures a = accounts.get(0);
    assertThat(a.channel()).isEqualTo("stripe");
    assertThat(a.accountRef()).isEqualTo("acct_a");
    assertThat(a.failureDomain()).isEqualTo("psp:stripe-a");
    assertThat(a.attemptsByStatus())
        .containsExactly(
            Map.entry("CREATED", 0L),
            Map.entry("PENDING", 0L),
            Map.entry("UNKNOWN", 1L),
            Map.entry("SUCCEEDED", 0L),
            Map.entry("FAILED", 2L));
    assertThat(a.answers()).isEqualTo(3);
    assertThat(a.unknownAnswers()).isEqualTo(2);
    assertThat(a.unknownShare()).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(a.openTasks()).isEqualTo(1);
    assertThat(a.oldestOpenTaskAgeSeconds()).isEqualTo(590L);
    assertThat(a.manualTasks()).isEqualTo(1);

    AccountFigures b = accounts.get(1);
    assertThat(b.attemptsByStatus()).containsEntry("SUCCEEDED", 1L).containsEntry("PENDING", 1L);
    assertThat(b.unknownShare()).isZero();
    assertThat(b.openTasks()).isEqualTo(1);
    assertThat(b.oldestOpenTaskAgeSeconds()).isEqualTo(90L);
    assertThat(b.manualTasks()).isZero();

    AccountFigures idle = accounts.get(2);
    assertThat(idle.attemptsByStatus().values()).containsOnly(0L);
    assertThat(idle.answers()).isZero();
    assertThat(idle.unknownShare()).isNull();
    assertThat(idle.oldestOpenTaskAgeSeconds()).isNull();

    assertThat(ops.totals(NOW)).isEqualTo(new Totals(5, 1, 1, 2, 590L, 1));
  }

  @Test
  void compensationsByStatus() throws SQLException {
    accounts();
    for (int i = 0; i < 4; i++) {
      order("T_" + i);
      attempt(400 + i, "T_" + i, 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(1000));
    }
    compensation(400, "T_0", "PENDING");
    compensation(401, "T_1", "MANUAL");
    compensation(402, "T_2", "REFUNDED");
    compensation(403, "T_3", "REFUNDED");

    assertThat(ops.compensationsByStatus())
        .containsExactly(
            Map.entry("PENDING", 1L), Map.entry("REFUNDED", 2L), Map.entry("MANUAL", 1L));
  }
}
