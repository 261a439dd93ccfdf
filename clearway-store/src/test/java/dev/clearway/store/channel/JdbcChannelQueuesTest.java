package dev.clearway.store.channel;

import static dev.clearway.store.channel.ConsoleChannelRows.NOW;
import static dev.clearway.store.channel.ConsoleChannelRows.accounts;
import static dev.clearway.store.channel.ConsoleChannelRows.attempt;
import static dev.clearway.store.channel.ConsoleChannelRows.compensation;
import static dev.clearway.store.channel.ConsoleChannelRows.flow;
import static dev.clearway.store.channel.ConsoleChannelRows.order;
import static dev.clearway.store.channel.ConsoleChannelRows.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.store.channel.JdbcChannelQueues.TaskKey;
import dev.clearway.store.channel.JdbcChannelQueues.TaskRow;
import dev.clearway.store.testing.TestDatabase;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The channel work a person may pick up, read from the real PostgreSQL: open and MANUAL recovery
 * tasks by due time, MANUAL compensations newest first, page by page with a key, each naming the
 * merchant of its payment.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcChannelQueuesTest {
  private final JdbcChannelQueues queues = new JdbcChannelQueues(TestDatabase.get().dataSource());

  @BeforeEach
  void clean() throws SQLException {
    ConsoleChannelRows.clean();
  }

  @Test
  void openOrManualTasksDueLongestAgoFirstWithTheirOrderAccountAndMerchant() throws SQLException {
    accounts();
    for (int i = 0; i < 4; i++) {
      order("T_" + i);
      attempt(300 + i, "T_" + i, 1, 1, "INITIAL", null, "UNKNOWN", NOW.minusSeconds(1000));
    }
    task(300, 1, "READY", NOW.minusSeconds(100));
    task(301, 1, "MANUAL", NOW.minusSeconds(400));
    task(302, 1, "RESOLVED", NOW.minusSeconds(900));
    task(303, 1, "LEASED", NOW.minusSeconds(200));
    flow("shop-a", "T_1");

    List<TaskRow> tasks = queues.tasks(null, 50, NOW);

    assertThat(tasks).extracting(TaskRow::attemptId).containsExactly(301L, 303L, 300L);
    TaskRow manual = tasks.get(0);
    assertThat(manual.tradeOrderNo()).isEqualTo("T_1");
    assertThat(manual.merchantId()).isEqualTo("shop-a");
    assertThat(tasks.get(1).merchantId()).isNull();
    assertThat(manual.channel()).isEqualTo("stripe");
    assertThat(manual.accountRef()).isEqualTo("acct_a");
    assertThat(manual.status()).isEqualTo("MANUAL");
    assertThat(manual.strategy()).isEqualTo("QUERY");
    assertThat(manual.attempts()).isEqualTo(3);
    assertThat(manual.lastError()).isEqualTo("psp_timeout");
    assertThat(manual.policyVersion()).isEqualTo("v7");
    assertThat(manual.dueAt()).isEqualTo(NOW.minusSeconds(400).plusSeconds(30));
    assertThat(manual.ageSeconds()).isEqualTo(400);
    // Page by page after the (due time, id) of the last task read.
    List<TaskRow> first = queues.tasks(null, 1, NOW);
    assertThat(first).extracting(TaskRow::attemptId).containsExactly(301L);
    TaskKey after = new TaskKey(first.get(0).dueAt(), first.get(0).taskId());
    assertThat(queues.tasks(after, 5, NOW))
        .extracting(TaskRow::attemptId)
        .containsExactly(303L, 300L);
    assertThatThrownBy(() -> queues.tasks(null, 0, NOW))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void tasksDueAtTheSameInstantPageByIdWithoutLosingOne() throws SQLException {
    accounts();
    for (int i = 0; i < 5; i++) {
      order("T_" + i);
      attempt(600 + i, "T_" + i, 1, 1, "INITIAL", null, "UNKNOWN", NOW.minusSeconds(1000));
      task(600 + i, 1, "READY", NOW.minusSeconds(100));
    }
    List<Long> seen = new java.util.ArrayList<>();
    TaskKey after = null;
    for (List<TaskRow> page = queues.tasks(null, 2, NOW);
        !page.isEmpty();
        page = queues.tasks(after, 2, NOW)) {
      page.forEach(t -> seen.add(t.attemptId()));
      TaskRow last = page.get(page.size() - 1);
      after = new TaskKey(last.dueAt(), last.taskId());
    }
    assertThat(seen).containsExactly(600L, 601L, 602L, 603L, 604L);
  }

  @Test
  void manualCompensationsNewestFirstWithTheirMerchant() throws SQLException {
    accounts();
    for (int i = 0; i < 5; i++) {
      order("T_" + i);
      attempt(400 + i, "T_" + i, 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(1000));
    }
    compensation(400, "T_0", "PENDING");
    compensation(401, "T_1", "MANUAL");
    compensation(402, "T_2", "REFUNDED");
    compensation(403, "T_3", "REFUNDED");

    compensation(404, "T_4", "MANUAL");
    flow("shop-b", "T_1");
    assertThat(queues.manualCompensations(Long.MAX_VALUE, 50))
        .extracting(JdbcChannelQueues.ManualCompensation::attemptId)
        .containsExactly(404L, 401L);
    assertThat(queues.manualCompensations(404, 50))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.attemptId()).isEqualTo(401);
              assertThat(c.merchantId()).isEqualTo("shop-b");
              assertThat(c.tradeOrderNo()).isEqualTo("T_1");
              assertThat(c.refundNo()).isEqualTo("CR401");
              assertThat(c.amount()).isEqualTo(1500);
              assertThat(c.reason()).isEqualTo("LATE_SUCCESS");
              assertThat(c.lastError()).isEqualTo("refund_abnormal");
            });
  }
}
