package dev.clearway.store.channel;

import static dev.clearway.store.channel.ConsoleChannelRows.NOW;
import static dev.clearway.store.channel.ConsoleChannelRows.accounts;
import static dev.clearway.store.channel.ConsoleChannelRows.attempt;
import static dev.clearway.store.channel.ConsoleChannelRows.compensation;
import static dev.clearway.store.channel.ConsoleChannelRows.evidence;
import static dev.clearway.store.channel.ConsoleChannelRows.flow;
import static dev.clearway.store.channel.ConsoleChannelRows.order;
import static dev.clearway.store.channel.ConsoleChannelRows.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.channel.JdbcOrderTimeline.AttemptTimeline;
import dev.clearway.store.channel.JdbcOrderTimeline.EvidenceRow;
import dev.clearway.store.channel.JdbcOrderTimeline.OrderTimeline;
import dev.clearway.store.testing.TestDatabase;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One order's attempts (newest first) with their evidence (newest first), read from the real
 * PostgreSQL, both paged.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcOrderTimelineTest {
  private final JdbcOrderTimeline timeline = new JdbcOrderTimeline(TestDatabase.get().dataSource());

  @BeforeEach
  void clean() throws SQLException {
    ConsoleChannelRows.clean();
  }

  @Test
  void anOrdersAttemptsNewestFirstWithTheirNewestEvidence() throws SQLException {
    orderWithTwoAttempts();

    OrderTimeline order = timeline.order("T_9", Integer.MAX_VALUE, 10, 10).orElseThrow();

    assertThat(order.tradeOrderNo()).isEqualTo("T_9");
    assertThat(order.merchantId()).isEqualTo("shop-c");
    assertThat(order.amount()).isEqualTo(1500);
    assertThat(order.currency()).isEqualTo("EUR");
    assertThat(order.status()).isEqualTo("OPEN");
    assertThat(order.attempts()).extracting(AttemptTimeline::attemptId).containsExactly(502L, 501L);
    AttemptTimeline first = order.attempts().get(1);
    assertThat(first.origin()).isEqualTo("INITIAL");
    assertThat(first.previousAttemptId()).isNull();
    assertThat(first.channel()).isEqualTo("stripe");
    assertThat(first.compensationStatus()).isEqualTo("PENDING");
    assertThat(first.recoveryTaskStatus()).isNull();
    assertThat(first.evidence())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.certainty()).isEqualTo("DEFINITE_FAILURE");
              assertThat(e.providerStatus()).isEqualTo("status_DEFINITE_FAILURE");
              assertThat(e.requestId()).isEqualTo("req-501-CREATE");
              assertThat(e.policyVersion()).isEqualTo("v7");
              assertThat(e.observedAt()).isEqualTo(NOW.minusSeconds(59));
            });
    AttemptTimeline second = order.attempts().get(0);
    assertThat(second.origin()).isEqualTo("FAILOVER");
    assertThat(second.previousAttemptId()).isEqualTo(501L);
    assertThat(second.accountRef()).isEqualTo("mch_b");
    assertThat(second.recoveryTaskStatus()).isEqualTo("LEASED");
    assertThat(second.evidence())
        .extracting(EvidenceRow::operation)
        .containsExactly("RETRIEVE_AGAIN", "RETRIEVE", "CREATE");

    assertThat(timeline.order("T_other", Integer.MAX_VALUE, 10, 10)).isEmpty();
  }

  @Test
  void attemptsAndEvidencePageOnTheirOwn() throws SQLException {
    orderWithTwoAttempts();

    // One attempt per page, two pieces of evidence per attempt; the rest page on their own.
    OrderTimeline page = timeline.order("T_9", Integer.MAX_VALUE, 1, 2).orElseThrow();
    assertThat(page.attempts()).singleElement().satisfies(a -> assertThat(a.seq()).isEqualTo(2));
    List<EvidenceRow> shown = page.attempts().get(0).evidence();
    assertThat(shown)
        .extracting(EvidenceRow::operation)
        .containsExactly("RETRIEVE_AGAIN", "RETRIEVE");
    assertThat(timeline.evidence(502, shown.get(1).id(), 10))
        .extracting(EvidenceRow::operation)
        .containsExactly("CREATE");
    assertThat(timeline.order("T_9", 2, 10, 10).orElseThrow().attempts())
        .extracting(AttemptTimeline::attemptId)
        .containsExactly(501L);
    assertThat(timeline.attemptExists(502)).isTrue();
    assertThat(timeline.attemptExists(999)).isFalse();
  }

  /** Order T_9 of shop-c: attempt 501 failed, its failover 502 is UNKNOWN with three answers. */
  private static void orderWithTwoAttempts() throws SQLException {
    accounts();
    order("T_9");
    flow("shop-c", "T_9");
    attempt(501, "T_9", 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(60));
    attempt(502, "T_9", 2, 2, "FAILOVER", 501L, "UNKNOWN", NOW.minusSeconds(30));
    evidence(501, "RESPONSE", "CREATE", "DEFINITE_FAILURE", NOW.minusSeconds(59));
    evidence(502, "RESPONSE", "CREATE", "UNKNOWN", NOW.minusSeconds(29));
    evidence(502, "QUERY", "RETRIEVE", "PENDING", NOW.minusSeconds(10));
    evidence(502, "QUERY", "RETRIEVE_AGAIN", "PENDING", NOW.minusSeconds(5));
    task(502, 2, "LEASED", NOW.minusSeconds(29));
    compensation(501, "T_9", "PENDING");
  }

  @Test
  void anOrderWithoutAttemptsHasAnEmptyTimeline() throws SQLException {
    order("T_closed");

    assertThat(timeline.order("T_closed", Integer.MAX_VALUE, 10, 10))
        .hasValueSatisfying(
            o -> {
              assertThat(o.attempts()).isEmpty();
              assertThat(o.merchantId()).isNull();
            });
  }
}
