package dev.clearway.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.port.CallBudget;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;

/** Takes permits from several budgets ("nodes") at once and checks them per calendar second. */
final class Permits {
  /** The tolerance the drain bench allows on its peak second. */
  static final double TOLERANCE = 1.05;

  private Permits() {}

  /**
   * {@code threads} threads per budget take permits of {@code account} at {@code qps} for {@code
   * millis}; answers the wall-clock milliseconds at which each permit was granted.
   */
  static List<Long> take(
      List<? extends CallBudget> budgets, long account, int qps, int threads, long millis)
      throws InterruptedException {
    List<Long> granted = Collections.synchronizedList(new ArrayList<>());
    long end = System.currentTimeMillis() + millis;
    CountDownLatch done = new CountDownLatch(budgets.size() * threads);
    for (CallBudget budget : budgets) {
      for (int i = 0; i < threads; i++) {
        Thread t =
            new Thread(
                () -> {
                  while (System.currentTimeMillis() < end) {
                    budget.acquire(account, qps);
                    granted.add(System.currentTimeMillis());
                  }
                  done.countDown();
                });
        t.setDaemon(true);
        t.start();
      }
    }
    done.await();
    return granted;
  }

  /** At most {@code qps} (times the tolerance) permits in any calendar second. */
  static void assertWithinBudget(List<Long> granted, int qps) {
    Map<Long, Integer> perSecond = new TreeMap<>();
    synchronized (granted) {
      for (long at : granted) {
        perSecond.merge(at / 1000, 1, Integer::sum);
      }
    }
    assertThat(perSecond.values())
        .as("permits per calendar second %s", perSecond)
        .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo((int) Math.floor(qps * TOLERANCE)));
  }
}
