package dev.clearway.core.channel.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The dry run read page by page gives the report of the whole history in memory, and never asks for
 * more than a page at a time.
 */
class DryRunReplayTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private final RecoveryPolicy current =
      Policies.policy("v1", Policies.stripeCreate(), Policies.wechatCreate());
  private final RecoveryPolicy candidate =
      Policies.policy(
          "v2",
          new PolicyRule(
              new RuleMatch("stripe", "card", Operation.CREATE),
              List.of(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
              List.of(Duration.ofSeconds(2), Duration.ofSeconds(20)),
              Duration.ofMinutes(30),
              5,
              4),
          Policies.wechatCreate());

  @Test
  void pagesGiveTheReportOfTheWholeHistoryInBoundedPages() {
    for (long seed : new long[] {1, 7, 42}) {
      for (int size : new int[] {0, 1, DryRun.PAGE - 1, DryRun.PAGE, 2 * DryRun.PAGE + 345}) {
        List<RecordedAttempt> history = history(new Random(seed), size);
        CountingHistory paged = new CountingHistory(history);

        DryRunReport replayed =
            new DryRun().replay(current, candidate, Policies.CHANNELS, paged, T0);

        assertThat(replayed)
            .as("seed %d, %d attempts", seed, size)
            .isEqualTo(new DryRun().run(current, candidate, Policies.CHANNELS, history));
        assertThat(replayed.total()).isEqualTo(size);
        assertThat(paged.largestPage).isLessThanOrEqualTo(DryRun.PAGE);
        // Every full page is followed by one more call, which finds the rest or nothing.
        assertThat(paged.calls).as("seed %d, %d attempts", seed, size).isEqualTo(size / 1000 + 1);
        assertThat(paged.closed).isTrue();
      }
    }
  }

  /** Attempts oldest first, as a store reads them: some unresolved, some resolved late. */
  private static List<RecordedAttempt> history(Random random, int size) {
    List<RecordedAttempt> list = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Instant created = T0.plusSeconds(random.nextInt(3 * 24 * 3600));
      Instant resolved =
          random.nextInt(4) == 0 ? null : created.plusSeconds(1 + random.nextInt(3600));
      boolean stripe = random.nextInt(3) > 0;
      list.add(
          new RecordedAttempt(
              1 + i,
              stripe ? "stripe" : random.nextInt(10) == 0 ? "paypal" : "wechat",
              stripe ? "card" : "wallet",
              Operation.CREATE,
              created,
              resolved,
              random.nextInt(5)));
    }
    list.sort(
        Comparator.comparing(RecordedAttempt::createdAt)
            .thenComparingLong(RecordedAttempt::attemptId));
    return list;
  }

  /** Recorded history served from a list, counting the pages asked for. */
  private static final class CountingHistory implements RecordedHistory {
    private final List<RecordedAttempt> attempts;
    int calls;
    int largestPage;
    boolean closed;

    CountingHistory(List<RecordedAttempt> attempts) {
      this.attempts = attempts;
    }

    @Override
    public Reading open(Instant from) {
      return new Reading() {
        private int position;

        @Override
        public Instant asOf() {
          return DryRun.asOf(attempts);
        }

        @Override
        public List<RecordedAttempt> next(int limit) {
          calls++;
          List<RecordedAttempt> page =
              List.copyOf(attempts.subList(position, Math.min(attempts.size(), position + limit)));
          position += page.size();
          largestPage = Math.max(largestPage, page.size());
          return page;
        }

        @Override
        public void close() {
          closed = true;
        }
      };
    }
  }
}
