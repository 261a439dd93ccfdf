package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.JdbcReviewQueries;
import dev.clearway.store.review.HistoryEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a person reads about one flow in review, on the sharded URL: its transitions (the live
 * history and the archive), its commands and its audit trail; each statement reaches one physical
 * table, the flow's own for its history.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedReviewReadsTest {

  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final Pattern HISTORY =
      Pattern.compile("\\b(pay_flow_history|pay_flow_history_archive)_(\\d)\\b");

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcFlowStore store = new JdbcFlowStore(database.dataSource(), database.dialect());
  private final JdbcReviewQueries review = new JdbcReviewQueries(database.dataSource());

  @BeforeEach
  void clean() {
    db.truncate(ShardedTestDatabase.FLOW_TABLES);
  }

  /** A flow of {@code shard} moved to BIZ_SUCCESS: four history rows. */
  private PayFlow finishedFlowOn(int shard) {
    return SucceededFlows.create(store, ShardedGoals.on(shard, "review-" + shard), 1_999L, T0);
  }

  @Test
  void aFlowsReviewReadsReachItsShardOnlyAndPageItsHistory() {
    for (int shard = 0; shard < 4; shard++) {
      PayFlow f = finishedFlowOn(shard);
      List<List<HistoryEntry>> pages = new ArrayList<>();
      List<SqlLog.Routed> log =
          SqlLog.capture(
              () -> {
                pages.add(review.history(f.id(), Long.MAX_VALUE, 3));
                pages.add(review.history(f.id(), pages.get(0).get(2).id(), 3));
                review.commands(f.id(), Long.MAX_VALUE, 10);
                return review.audit(f.id(), Long.MAX_VALUE, 10);
              });
      assertThat(pages.get(0))
          .extracting(HistoryEntry::toStatus)
          .containsExactly("BIZ_SUCCESS", "PAYED", "PAYING");
      assertThat(pages.get(1)).hasSize(1);
      assertThat(pages.get(1).get(0).id()).isLessThan(pages.get(0).get(2).id());
      System.out.printf(
          "review reads of a flow on shard %d: %d statements, physical tables per statement %s%n",
          shard, log.size(), log.stream().map(SqlLog.Routed::shards).distinct().toList());
      assertThat(log).hasSize(6);
      int historyReads = 0;
      for (SqlLog.Routed statement : log) {
        assertThat(statement.actual()).as(statement.logic()).hasSize(1);
        String actual = statement.actual().get(0);
        Matcher m = HISTORY.matcher(actual);
        if (m.find()) {
          historyReads++;
          int reached = Integer.parseInt(actual.substring(3, 4)) * 2 + Integer.parseInt(m.group(2));
          assertThat(reached).as(actual).isEqualTo(shard);
        }
      }
      assertThat(historyReads).isEqualTo(4);
    }
  }
}
