package dev.clearway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import java.io.OutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/** Smoke run of {@code bench drain}: the backlog drains and never exceeds the budget. */
class DrainBenchTest {

  @Test
  void aSmallBacklogDrainsWithinItsBudget() throws Exception {
    DrainBench.Result r =
        DrainBench.measure(
            TestDatabase.get().database(),
            200,
            100,
            new PrintStream(OutputStream.nullOutputStream()));

    assertThat(r.succeeded()).isEqualTo(200);
    assertThat(r.pspCalls()).isGreaterThanOrEqualTo(200);
    // Pacing: slots are spaced 1/B apart, so a calendar second sees B (+1 at its edge); a thread
    // the machine descheduled may land its call in the next second, hence the target's 5%.
    assertThat(r.peakPerSecond()).isLessThanOrEqualTo(105);
  }
}
